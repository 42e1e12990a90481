// Footnotes and endnotes of a multi-column section keep every word: the notes of references in
// the second column, of long notes split across pages, and of a continuous section whose columns
// are balanced above the next section.
import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import {
  buildDocx,
  type DocxParts,
  NOTE_STYLES,
  note,
  noteReference,
  noteSeparators,
} from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';

async function convertText(parts: DocxParts): Promise<string> {
  const form = new FormData();
  form.append('file', new File([buildDocx(parts) as Uint8Array<ArrayBuffer>], 'notes.docx'));
  const res = await call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
  expect(res.status).toBe(200);
  return (await pdfText(new Uint8Array(await res.arrayBuffer()))).join('\n');
}

const columns = (count: number, type?: string) =>
  `<w:sectPr>${type ? `<w:type w:val="${type}"/>` : ''}<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/><w:cols w:num="${count}" w:space="720"/></w:sectPr>`;
const words = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(' ');

function notesDocument(kind: 'footnote' | 'endnote', paragraphs: number, noteWords: number, sections: string) {
  const body = Array.from(
    { length: paragraphs },
    (_, i) =>
      `<w:p><w:r><w:t xml:space="preserve">${words(`body${i}w`, 40)} </w:t></w:r>${noteReference(kind, String(i + 1))}</w:p>`,
  ).join('');
  const notes = Array.from({ length: paragraphs }, (_, i) =>
    note(kind, String(i + 1), words(`note${i}w`, noteWords)),
  ).join('');
  return {
    styles: NOTE_STYLES,
    document: `<w:body>${body}${sections}</w:body>`,
    [kind === 'footnote' ? 'footnotes' : 'endnotes']: noteSeparators(kind) + notes,
  } as DocxParts;
}

const expectAll = (text: string, prefix: string, paragraphs: number, count: number) => {
  const squeezed = text.replace(/\s+/g, ' ');
  for (let i = 0; i < paragraphs; i++) {
    for (let w = 0; w < count; w++) expect(squeezed, `${prefix}${i}w${w}`).toContain(`${prefix}${i}w${w}`);
  }
};

describe('notes in a multi-column section', () => {
  for (const kind of ['footnote', 'endnote'] as const) {
    for (const count of [2, 3]) {
      it(`keeps every word of short ${kind}s in ${count} columns`, async () => {
        const text = await convertText(notesDocument(kind, 30, 12, columns(count)));
        expectAll(text, 'body', 30, 40);
        expectAll(text, 'note', 30, 12);
      });
    }
    it(`keeps every word of long ${kind}s split across pages in 2 columns`, async () => {
      const text = await convertText(notesDocument(kind, 8, 400, columns(2)));
      expectAll(text, 'body', 8, 40);
      expectAll(text, 'note', 8, 400);
    });
  }

  it('keeps every word of long footnotes in unequal columns, the first narrow', async () => {
    const unequal = columns(2).replace(
      '<w:cols w:num="2" w:space="720"/>',
      '<w:cols w:num="2" w:space="720" w:equalWidth="0"><w:col w:w="2000" w:space="720"/><w:col w:w="6640"/></w:cols>',
    );
    const text = await convertText(notesDocument('footnote', 10, 300, unequal));
    expectAll(text, 'body', 10, 40);
    expectAll(text, 'note', 10, 300);
  });

  it('keeps the footnotes of references in table cells of a two-column section', async () => {
    const parts = notesDocument('footnote', 12, 40, columns(2));
    const cells = (parts.document as string).replace(
      /<w:p>(.*?)<\/w:p>/g,
      '<w:tbl><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc><w:p>$1</w:p></w:tc></w:tr></w:tbl>',
    );
    const text = await convertText({ ...parts, document: cells.replace('<w:sectPr>', '<w:p/><w:sectPr>') });
    expectAll(text, 'body', 12, 40);
    expectAll(text, 'note', 12, 40);
  });

  it('keeps the notes of a balanced two-column section followed by a continuous one', async () => {
    const first = notesDocument('footnote', 6, 30, '');
    const document = (first.document as string).replace(
      '</w:body>',
      `<w:p><w:pPr>${columns(2)}</w:pPr></w:p><w:p><w:r><w:t>After the columns.</w:t></w:r></w:p>${columns(1, 'continuous')}</w:body>`,
    );
    const text = await convertText({ ...first, document });
    expectAll(text, 'body', 6, 40);
    expectAll(text, 'note', 6, 30);
    expect(text).toContain('After the columns.');
  });
});
