import { describe, expect, it } from 'vitest';
import { ObjectReader } from '../../../src/services/pdf-read/object-reader';
import { readPageTree } from '../../../src/services/pdf-read/page-tree';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { toBase64 } from '../input/helpers';
import { rawPdf } from '../sign/pdf-bombs';

const page = (parent: number) => `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] >>`;

function tree(pdf: Uint8Array) {
  const scan = findRevisions(pdf);
  return readPageTree(new ObjectReader(pdf, scan), scan.revisions.length - 1);
}

describe('the page tree verify reports (ISO 32000-1 §7.7.3)', () => {
  it('counts the pages there, not the /Count the root claims', () => {
    const pdf = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 1000000000 >>',
      page(2),
      page(2),
    ]);
    expect(tree(pdf)).toEqual({
      pages: new Map([
        [3, 1],
        [4, 2],
      ]),
      complete: true,
    });
  });

  it('numbers pages in document order through nested nodes', () => {
    const pdf = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 >>',
      '<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 2 >>',
      page(2),
      page(3),
      page(3),
    ]);
    expect([...tree(pdf).pages]).toEqual([
      [5, 1],
      [6, 2],
      [4, 3],
    ]);
  });

  it('reads each node once: a loop, and a node listed a thousand times under a node listed a thousand times', () => {
    const loop = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      page(4),
      '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 1 >>',
    ]);
    expect(tree(loop)).toEqual({ pages: new Map([[3, 1]]), complete: true });
    const many = (ref: string) => `[${Array(1000).fill(ref).join(' ')}]`;
    const dag = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids ${many('4 0 R')} /Count 1000000 >>`,
      page(5),
      `<< /Type /Pages /Parent 2 0 R /Kids ${many('5 0 R')} /Count 1000 >>`,
      '<< /Type /Pages /Parent 4 0 R /Kids [3 0 R] /Count 1 >>',
    ]);
    expect(tree(dag)).toEqual({ pages: new Map([[3, 1]]), complete: true });
  });

  it('says when there is no tree to read', () => {
    expect(tree(rawPdf(['<< /Type /Catalog >>'])).complete).toBe(false);
    expect(tree(rawPdf(['<< /Type /Catalog /Pages 9 0 R >>'])).complete).toBe(false);
  });

  it('POST /v1/verify reports the pages there as document.pages', async () => {
    const pdf = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>',
      page(2),
    ]);
    const res = await call(
      '/v1/verify',
      withKey(await mintKey(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ document: { base64: toBase64(pdf) } }),
      }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { document: { pages: number | null } }).document.pages).toBe(1);
  });
});
