// CSS lengths and font sizes no page could hold are read within the bounds Word accepts (the
// model is the same for HTML as for DOCX), and such pages convert: never a 500, quickly.
import { describe, expect, it } from 'vitest';
import { parseFontSize, parseLength } from '../../../src/engine/read/html/css-values';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';

describe('CSS lengths within Word bounds', () => {
  it('clamps lengths to ±22 in (1,584 pt) and font sizes to 1–1,638 pt', () => {
    const context = { fontSize: 12 };
    expect(parseLength('99999999in', context)).toBe(1584);
    expect(parseLength('-1000000000px', context)).toBe(-1584);
    expect(parseLength('1000000000em', context)).toBe(1584);
    expect(parseLength('100000%', context, 468)).toBe(1584);
    expect(parseLength('12pt', context)).toBe(12);
    expect(parseFontSize('1000000000px', 12)).toBe(1638);
    expect(parseFontSize(`1${'0'.repeat(400)}px`, 12)).toBeUndefined();
    expect(parseFontSize('0.01px', 12)).toBe(1);
    expect(parseFontSize('1000000em', 12)).toBe(1638);
  });
});

describe('POST /v1/convert with extreme CSS', () => {
  async function convert(html: string): Promise<Response> {
    const form = new FormData();
    form.append('file', new File([new TextEncoder().encode(html)], 'extreme.html'));
    return call('/v1/convert?from=html&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
  }

  it.each([
    ['font-size: 1000000000px', '<p style="font-size: 1000000000px">Huge</p><p>after</p>'],
    ['font-size: 1000000em nested', '<div style="font-size: 1000000em"><p style="font-size: 1000000em">Huge</p></div>'],
    ['width: 99999999in', '<table style="width: 99999999in"><tr><td style="width: 99999999in">cell</td></tr></table>'],
    [
      'margins and indents of 10^9 px',
      '<p style="margin-left: 1000000000px; text-indent: -1000000000px; padding-top: 1000000000px">x</p>',
    ],
    [
      'letter-spacing and line-height',
      '<p style="letter-spacing: 1000000000px; line-height: 1000000000px">spaced out</p>',
    ],
    [
      'an image 99999999 pixels wide',
      '<p><img width="99999999" height="99999999" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></p>',
    ],
  ])('answers 200 quickly for %s', async (_name, body) => {
    const started = Date.now();
    const res = await convert(`<!doctype html><html><body>${body}</body></html>`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
