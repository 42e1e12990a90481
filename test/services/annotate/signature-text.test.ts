import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_FONT, signatureTextRunsXml } from '../../../src/services/annotate/signature-text';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function runs(xml: string) {
  const doc = new DOMParser().parseFromString(`<w:p xmlns:w="${W}">${xml}</w:p>`, 'text/xml');
  return Array.from(doc.getElementsByTagNameNS(W, 'r'));
}

describe('signatureTextRunsXml', () => {
  it('sets the name in a handwriting face, then a rule, then the name in the field’s style', () => {
    const rPr = '<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:color w:val="1F3864"/></w:rPr>';
    const list = runs(signatureTextRunsXml('Zoë O’Brien & Co <x>', rPr));
    expect(list.length).toBe(5);
    const [hand, , rule, , printed] = list;
    const fonts = hand?.getElementsByTagNameNS(W, 'rFonts')[0];
    expect(fonts?.getAttributeNS(W, 'ascii')).toBe(SIGNATURE_FONT);
    expect(fonts?.getAttributeNS(W, 'hAnsi')).toBe('Segoe Script');
    expect(hand?.getElementsByTagNameNS(W, 'sz')[0]?.getAttributeNS(W, 'val')).toBe('44');
    expect(hand?.textContent).toBe('Zoë O’Brien & Co <x>');
    expect(list[1]?.getElementsByTagNameNS(W, 'br').length).toBe(1);
    expect(rule?.textContent).toMatch(/^_{20,}$/);
    expect(printed?.textContent).toBe('Zoë O’Brien & Co <x>');
    expect(printed?.getElementsByTagNameNS(W, 'color')[0]?.getAttributeNS(W, 'val')).toBe('1F3864');
  });

  it('works without run properties', () => {
    const list = runs(signatureTextRunsXml('Jane', undefined));
    expect(list.length).toBe(5);
    expect(list[4]?.getElementsByTagNameNS(W, 'rPr').length).toBe(0);
  });
});
