/**
 * A text signature (a `signature` field whose value is a name, not an image): runs that go inside
 * the field's existing paragraph, so runs only (w:r, ECMA-376 Part 1 §17.3.2.25), with line
 * breaks (w:br, §17.3.3.1) between the three lines:
 *
 *   <name, handwriting face, 22 pt>
 *   ______________________________
 *   <name, the field's own style>
 */
import { escapeText } from '../../engine';

/**
 * "Segoe Script" ships with Windows and Office; Word without it substitutes by its own rules.
 * Quire's PDF engine maps it (and "Brush Script MT", "Dancing Script") to the bundled OFL face
 * Dancing Script (src/engine/fonts/font-substitution.ts), so the PDF looks handwritten too.
 */
export const SIGNATURE_FONT = 'Segoe Script';
/** w:sz is in half-points (§17.3.2.38): 44 = 22 pt. */
const SIGNATURE_HALF_POINTS = 44;
/** The signing line: 30 low lines, about 2.5 in at 11 pt in a proportional face. */
const RULE = '_'.repeat(30);

function textRun(text: string, runProperties: string | undefined): string {
  return `<w:r>${runProperties ?? ''}<w:t xml:space="preserve">${escapeText(text)}</w:t></w:r>`;
}

const BREAK = '<w:r><w:br/></w:r>';

/**
 * `firstRunProperties`: the `<w:rPr>…</w:rPr>` of the field's first run (its style, colour,
 * size), kept for the rule and the printed name. The handwritten line takes only the face and the
 * size: the rPr children must keep the schema's order (§17.3.2.28), which merging two of them as
 * text would not guarantee.
 */
export function signatureTextRunsXml(name: string, firstRunProperties: string | undefined): string {
  const handwriting =
    `<w:rPr><w:rFonts w:ascii="${SIGNATURE_FONT}" w:hAnsi="${SIGNATURE_FONT}" w:cs="${SIGNATURE_FONT}"/>` +
    `<w:sz w:val="${SIGNATURE_HALF_POINTS}"/><w:szCs w:val="${SIGNATURE_HALF_POINTS}"/></w:rPr>`;
  return (
    textRun(name, handwriting) + BREAK + textRun(RULE, firstRunProperties) + BREAK + textRun(name, firstRunProperties)
  );
}
