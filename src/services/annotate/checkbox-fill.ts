/**
 * Checkbox content controls (Word 2010's w14:checkbox in w:sdtPr, [MS-DOCX] §2.6.1.1): the state
 * is w14:checked/@w14:val ("1" or "0"), and what is shown is a glyph in the control's content,
 * the character w14:checkedState or w14:uncheckedState names (w14:val: hex code point, w14:font:
 * its font). Both must change, or Word and every other reader disagree on what is ticked.
 */
import { xmlChars } from '../../engine';
import { controlContent } from './content-control-finder';
import { clearPlaceholderFlag } from './control-content';
import { createW, type Element, elementChildren, ownerOf, W14_NS, wChild, wDescendants } from './ooxml-dom';
import { setText, textRun } from './run-content';

/** ☒ and ☐ in MS Gothic: Word's defaults when the states are not written. */
const DEFAULT_STATES = {
  checked: { glyph: 0x2612, font: 'MS Gothic' },
  unchecked: { glyph: 0x2610, font: 'MS Gothic' },
};

export function fillCheckbox(sdt: Element, checkbox: Element, checked: boolean): void {
  const document = ownerOf(sdt);
  let state = w14Child(checkbox, 'checked');
  if (!state) {
    state = document.createElementNS(W14_NS, `${checkbox.prefix ?? 'w14'}:checked`);
    checkbox.insertBefore(state, checkbox.firstChild);
  }
  state.setAttributeNS(W14_NS, `${state.prefix ?? 'w14'}:val`, checked ? '1' : '0');

  const written = w14Child(checkbox, checked ? 'checkedState' : 'uncheckedState');
  const fallback = checked ? DEFAULT_STATES.checked : DEFAULT_STATES.unchecked;
  const code = Number.parseInt(written?.getAttributeNS(W14_NS, 'val') ?? '', 16);
  const named = Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  // A state naming a character XML cannot hold (a control, a surrogate) would vanish when written.
  const glyph = named !== '' && xmlChars(named) === named ? named : String.fromCodePoint(fallback.glyph);
  const font = written?.getAttributeNS(W14_NS, 'font') || fallback.font;

  const content = controlContent(sdt);
  const t = content ? wDescendants(content, 't')[0] : undefined;
  if (t) {
    setText(t, glyph);
    const run = t.parentNode as Element;
    setRunFont(run, font);
  } else if (content) {
    const run = textRun(document, glyph, undefined);
    setRunFont(run, font);
    const paragraph = wDescendants(content, 'p')[0];
    (paragraph ?? content).appendChild(run);
  }
  clearPlaceholderFlag(sdt);
}

/** The glyph's font on all four slots of w:rFonts (§17.3.2.26), so no script picks another face. */
function setRunFont(run: Element, font: string): void {
  const document = ownerOf(run);
  let properties = wChild(run, 'rPr');
  if (!properties) {
    properties = createW(document, 'rPr');
    run.insertBefore(properties, run.firstChild);
  }
  let fonts = wChild(properties, 'rFonts');
  if (!fonts) {
    fonts = createW(document, 'rFonts');
    properties.insertBefore(fonts, wChild(properties, 'rStyle')?.nextSibling ?? properties.firstChild);
  }
  for (const slot of ['ascii', 'hAnsi', 'eastAsia', 'cs']) {
    fonts.setAttributeNS(fonts.namespaceURI, `${fonts.prefix ?? 'w'}:${slot}`, font);
  }
  for (const theme of ['asciiTheme', 'hAnsiTheme', 'eastAsiaTheme', 'cstheme'])
    fonts.removeAttributeNS(fonts.namespaceURI, theme);
}

function w14Child(element: Element, local: string): Element | undefined {
  return elementChildren(element).find((child) => child.localName === local && child.namespaceURI === W14_NS);
}
