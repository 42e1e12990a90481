/**
 * Appends the pages of one PDF to a pdf-lib document: how the audit-trail certificate joins the
 * document inside the signer's beforeSign hook, so it is part of the signed incremental update.
 */
import { PDFDocument } from 'pdf-lib';
import { correctPageCounts } from './page-tree';

/**
 * Copies every page of `pagesPdf` to the end of `doc`. With `size`, a page of another size is
 * scaled (aspect kept) and centred to it: the certificate should match the document's last page.
 */
export async function appendPdfPages(
  doc: PDFDocument,
  pagesPdf: Uint8Array,
  size?: { width: number; height: number },
): Promise<void> {
  const source = await PDFDocument.load(pagesPdf);
  // pdf-lib inserts by the counts: wrong ones would put the pages elsewhere, or make it throw.
  correctPageCounts(doc);
  const copied = await doc.copyPages(source, source.getPageIndices());
  for (const page of copied) {
    doc.addPage(page);
    if (!size) continue;
    const { width, height } = page.getSize();
    if (Math.abs(width - size.width) < 0.5 && Math.abs(height - size.height) < 0.5) continue;
    const scale = Math.min(size.width / width, size.height / height);
    page.scaleContent(scale, scale);
    page.setSize(size.width, size.height);
    page.translateContent((size.width - width * scale) / 2, (size.height - height * scale) / 2);
  }
}
