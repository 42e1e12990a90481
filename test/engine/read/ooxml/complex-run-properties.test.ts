import { describe, expect, it } from 'vitest';
import type { Paragraph } from '../../../../src/engine/model/document';
import { readDocx } from '../../../../src/engine/read/ooxml/docx-reader';
import { DEFAULT_LIMITS } from '../../../../src/limits';
import { buildDocx } from '../../../helpers/docx-fixture';

describe('complex-script run properties', () => {
  it('reads szCs, bCs, iCs, rtl and cs, with bCs/iCs toggling along the styles like b/i', () => {
    const styles = `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Times New Roman" w:cs="Traditional Arabic"/><w:sz w:val="16"/><w:szCs w:val="24"/></w:rPr></w:rPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Strong"><w:name w:val="Strong"/><w:basedOn w:val="Normal"/><w:rPr><w:bCs/></w:rPr></w:style>`;
    const document = `<w:body>
<w:p><w:pPr><w:pStyle w:val="Strong"/><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/><w:iCs/></w:rPr><w:t>مرحبا</w:t></w:r><w:r><w:rPr><w:cs/><w:b/></w:rPr><w:t>x</w:t></w:r></w:p>
</w:body>`;
    const model = readDocx(buildDocx({ styles, document }), { revisions: 'markup', limits: DEFAULT_LIMITS });
    const paragraph = model.sections[0]?.blocks[0] as Paragraph;
    expect(paragraph.props.rtl).toBe(true);
    const [arabic, latin] = paragraph.inlines.map((inline) => (inline.kind === 'text' ? inline.props : undefined));
    expect(arabic).toMatchObject({ size: 8, sizeComplex: 12, fontComplex: 'Traditional Arabic', rtl: true });
    expect(arabic).toMatchObject({ boldComplex: true, italicComplex: true, bold: false });
    expect(latin).toMatchObject({ complexScript: true, bold: true, boldComplex: true });
    expect(latin?.italicComplex).toBeUndefined();
  });

  it('reads rFonts w:hint eastAsia, inherited from the style like the fonts', () => {
    const styles = `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="character" w:styleId="Quote"><w:name w:val="Quote"/><w:rPr><w:rFonts w:eastAsia="SimSun" w:hint="eastAsia"/></w:rPr></w:style>`;
    const document = `<w:body><w:p><w:r><w:rPr><w:rStyle w:val="Quote"/></w:rPr><w:t>“a”</w:t></w:r><w:r><w:t>b</w:t></w:r></w:p></w:body>`;
    const model = readDocx(buildDocx({ styles, document }), { revisions: 'markup', limits: DEFAULT_LIMITS });
    const paragraph = model.sections[0]?.blocks[0] as Paragraph;
    const [hinted, plain] = paragraph.inlines.map((inline) => (inline.kind === 'text' ? inline.props : undefined));
    expect(hinted).toMatchObject({ fontEastAsia: 'SimSun', fontHintEastAsia: true });
    expect(plain?.fontHintEastAsia).toBeUndefined();
  });
});
