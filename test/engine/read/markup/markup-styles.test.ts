import { describe, expect, it } from 'vitest';
import {
  CHARACTER_STYLES,
  markupStyleCascade,
  PARAGRAPH_STYLES,
} from '../../../../src/engine/read/markup/markup-styles';

describe('markup styles', () => {
  it('resolve through the DOCX style cascade', () => {
    const cascade = markupStyleCascade();
    const h1 = cascade.paragraphProperties(
      cascade.paragraphBase({ styleId: 'Heading1', tableStyleId: undefined }),
      undefined,
    );
    expect(h1.outlineLevel).toBe(0);
    expect(h1.keepNext).toBe(true);
    expect(h1.styleId).toBe('Heading1');
    const run = cascade.runProperties(undefined, PARAGRAPH_STYLES.heading[0], undefined, undefined);
    expect(run).toMatchObject({ font: 'Calibri', size: 18, bold: true, color: '1F3864' });
    const link = cascade.runProperties(undefined, 'Normal', CHARACTER_STYLES.hyperlink, undefined);
    expect(link).toMatchObject({ size: 11, underline: 'single', color: '0563C1' });
    const code = cascade.runProperties(undefined, PARAGRAPH_STYLES.code, undefined, undefined);
    expect(code).toMatchObject({ font: 'Courier New', size: 9.5 });
    const normal = cascade.paragraphProperties(
      cascade.paragraphBase({ styleId: 'Normal', tableStyleId: undefined }),
      undefined,
    );
    expect(normal.spacing).toMatchObject({ after: 6, line: 1.1 });
  });
});
