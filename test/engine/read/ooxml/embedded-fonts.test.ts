import { describe, expect, it } from 'vitest';
import { deobfuscateFont } from '../../../../src/engine/read/ooxml/embedded-fonts';
import { paragraph } from '../../../helpers/docx-fixture';
import { obfuscateFont as obfuscate } from '../../../helpers/font-fixture';
import { readParts } from './model-queries';

const KEY = '{4C5F7E0A-1B2C-4D3E-8F90-A1B2C3D4E5F6}';

/** Bytes that look like the start of a TrueType font, then a recognisable body. */
function fakeFont(): Uint8Array {
  const bytes = new Uint8Array(200);
  bytes.set([0x00, 0x01, 0x00, 0x00, 0x00, 0x0c]);
  for (let i = 6; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
  return bytes;
}

describe('embedded fonts', () => {
  it('de-obfuscates the first 32 bytes with the reversed GUID key, twice over', () => {
    const font = fakeFont();
    const obfuscated = obfuscate(font, KEY);
    expect(obfuscated.subarray(0, 32)).not.toEqual(font.subarray(0, 32));
    expect(obfuscated.subarray(32)).toEqual(font.subarray(32));
    expect(deobfuscateFont(obfuscated, KEY)).toEqual(font);
    expect(deobfuscateFont(obfuscated, 'not a guid')).toBeUndefined();
  });

  it('reads fonts listed in the font table, by style', () => {
    const regular = fakeFont();
    const bold = fakeFont().map((byte) => byte ^ 0x55);
    const model = readParts({
      document: `<w:body>${paragraph('x')}</w:body>`,
      fontTable: `<w:font w:name="Fancy Sans"><w:embedRegular r:id="rIdF1" w:fontKey="${KEY}"/><w:embedBold r:id="rIdF2" w:fontKey="${KEY}"/><w:embedItalic r:id="rIdMissing" w:fontKey="${KEY}"/></w:font><w:font w:name="Calibri"/>`,
      fontTableRelationships: [
        { id: 'rIdF1', type: 'font', target: 'fonts/font1.odttf' },
        { id: 'rIdF2', type: 'font', target: 'fonts/font2.odttf' },
      ],
      extraParts: {
        'word/fonts/font1.odttf': obfuscate(regular, KEY),
        'word/fonts/font2.odttf': obfuscate(bold, KEY),
      },
    });
    expect(model.embeddedFonts).toEqual([
      { family: 'Fancy Sans', bold: false, italic: false, bytes: regular },
      { family: 'Fancy Sans', bold: true, italic: false, bytes: bold },
    ]);
    expect(model.warnings.join(' ')).toMatch(/Fancy Sans points at a missing part/);
  });

  it("keeps the font table's substitution hints: w:altName and w:family, by the font's name", () => {
    const model = readParts({
      document: `<w:body>${paragraph('x')}</w:body>`,
      fontTable:
        '<w:font w:name="inherit"><w:altName w:val="Times New Roman"/><w:panose1 w:val="00000000000000000000"/><w:family w:val="roman"/><w:notTrueType/></w:font>' +
        '<w:font w:name="Brand Mono"><w:family w:val="modern"/><w:pitch w:val="fixed"/></w:font>' +
        '<w:font w:name="Odd"><w:family w:val="auto"/></w:font><w:font w:name="Calibri"/>',
    });
    expect(model.declaredFonts).toEqual({
      inherit: { altName: 'Times New Roman', family: 'roman' },
      'Brand Mono': { family: 'modern', pitch: 'fixed' },
    });
  });
});
