/**
 * A paragraph's w:pPr (ECMA-376 Part 1 §17.3.1.26): its style, list membership, then only the
 * direct formatting that makes the model's resolved properties out of what the style (and list
 * level) alone resolve to. Children follow CT_PPrBase's sequence, then w:rPr (the paragraph
 * mark's run properties) and w:sectPr, as CT_PPr requires.
 */
import type { Alignment, ParagraphProperties, TabStop } from '../../model';
import { borderXml, sameBorder, shadingXml } from './border-xml';
import { toLineUnits, toTwips } from './measures';
import { escapeAttribute } from './xml-escape';

export interface ParagraphExtras {
  /** w:numPr: the list (w:numId) and 0-based level. */
  numbering?: { numId: number; level: number };
  /** The paragraph mark's rPr children (run-properties-xml.ts). */
  markRunProperties?: string;
  /** A section's properties, when this paragraph ends a section that is not the last (§17.6.17). */
  sectionProperties?: string;
}

function flag(name: string, value: boolean | undefined, base: boolean | undefined, absent = false): string {
  const on = value ?? absent;
  if (on === (base ?? absent)) return '';
  return on ? `<w:${name}/>` : `<w:${name} w:val="0"/>`;
}

export function paragraphPropertiesXml(
  props: ParagraphProperties,
  base: ParagraphProperties,
  styleId: string | undefined,
  extras: ParagraphExtras = {},
): string {
  let xml = '';
  if (styleId !== undefined) xml += `<w:pStyle w:val="${escapeAttribute(styleId)}"/>`;
  xml += flag('keepNext', props.keepNext, base.keepNext);
  xml += flag('keepLines', props.keepLines, base.keepLines);
  xml += flag('pageBreakBefore', props.pageBreakBefore, base.pageBreakBefore);
  // Word's default is on (paragraph-properties.ts): absent means on.
  xml += flag('widowControl', props.widowControl, base.widowControl, true);
  if (extras.numbering) {
    xml += `<w:numPr><w:ilvl w:val="${extras.numbering.level}"/><w:numId w:val="${extras.numbering.numId}"/></w:numPr>`;
  }
  xml += bordersXml(props, base);
  if (props.shading !== base.shading) xml += shadingXml(props.shading);
  xml += tabsXml(props.tabs, base.tabs);
  xml += flag('autoSpaceDE', props.autoSpaceLatin, base.autoSpaceLatin, true);
  xml += flag('autoSpaceDN', props.autoSpaceDigits, base.autoSpaceDigits, true);
  xml += flag('bidi', props.rtl, base.rtl);
  xml += flag('snapToGrid', props.snapToGrid, base.snapToGrid, true);
  xml += spacingXml(props.spacing, base.spacing);
  xml += indentXml(props.indent, base.indent);
  xml += flag('contextualSpacing', props.contextualSpacing, base.contextualSpacing);
  if (props.align !== base.align || props.rtl !== base.rtl)
    xml += `<w:jc w:val="${justification(props.align, props.rtl)}"/>`;
  if (props.outlineLevel !== base.outlineLevel) {
    // Level 9 is body text (§17.3.1.20): it removes a level the style gives.
    xml += `<w:outlineLvl w:val="${props.outlineLevel ?? 9}"/>`;
  }
  if (extras.markRunProperties) xml += `<w:rPr>${extras.markRunProperties}</w:rPr>`;
  if (extras.sectionProperties) xml += extras.sectionProperties;
  return xml === '' ? '' : `<w:pPr>${xml}</w:pPr>`;
}

/**
 * ST_Jc (§17.18.44). In a right-to-left paragraph Word reads left and right as the leading and
 * trailing edges, so the model's (visual) left is written "right" there, as the reader swaps it.
 */
function justification(align: Alignment, rtl: boolean): string {
  if (!rtl) return align;
  if (align === 'left') return 'right';
  if (align === 'right') return 'left';
  return align;
}

const BORDER_SIDES = ['top', 'left', 'bottom', 'right', 'between'] as const;

/** w:pBdr (§17.3.1.24), sides in the schema's order; a side the style has and the model not is nil. */
function bordersXml(props: ParagraphProperties, base: ParagraphProperties): string {
  let sides = '';
  for (const side of BORDER_SIDES) {
    const value = props.borders[side];
    if (!sameBorder(value, base.borders[side])) sides += borderXml(side, value);
  }
  return sides === '' ? '' : `<w:pBdr>${sides}</w:pBdr>`;
}

function sameTab(a: TabStop, b: TabStop): boolean {
  return a.position === b.position && a.align === b.align && a.leader === b.leader;
}

/**
 * w:tabs (§17.3.1.38): the style's stops the model lacks are cleared, the model's stops the style
 * lacks are set; tab changes accumulate over the style's (§17.3.1.37).
 */
function tabsXml(tabs: TabStop[], base: TabStop[]): string {
  const changes: { position: number; xml: string }[] = [];
  for (const stop of base) {
    if (!tabs.some((tab) => toTwips(tab.position) === toTwips(stop.position))) {
      changes.push({ position: stop.position, xml: `<w:tab w:val="clear" w:pos="${toTwips(stop.position)}"/>` });
    }
  }
  for (const stop of tabs) {
    if (base.some((tab) => sameTab(tab, stop))) continue;
    const leader = stop.leader === 'none' ? '' : ` w:leader="${stop.leader}"`;
    changes.push({
      position: stop.position,
      xml: `<w:tab w:val="${stop.align}"${leader} w:pos="${toTwips(stop.position)}"/>`,
    });
  }
  if (changes.length === 0) return '';
  changes.sort((a, b) => a.position - b.position);
  return `<w:tabs>${changes.map((change) => change.xml).join('')}</w:tabs>`;
}

/** w:spacing (§17.3.1.33): before/after in twips, line in 240ths (auto) or twips (exact, atLeast). */
function spacingXml(spacing: ParagraphProperties['spacing'], base: ParagraphProperties['spacing']): string {
  let attributes = '';
  const beforeAuto = spacing.beforeAuto ?? false;
  const afterAuto = spacing.afterAuto ?? false;
  if (spacing.before !== base.before || beforeAuto !== (base.beforeAuto ?? false)) {
    attributes += ` w:before="${toTwips(spacing.before)}"`;
  }
  if (beforeAuto !== (base.beforeAuto ?? false)) attributes += ` w:beforeAutospacing="${beforeAuto ? 1 : 0}"`;
  if (spacing.after !== base.after || afterAuto !== (base.afterAuto ?? false)) {
    attributes += ` w:after="${toTwips(spacing.after)}"`;
  }
  if (afterAuto !== (base.afterAuto ?? false)) attributes += ` w:afterAutospacing="${afterAuto ? 1 : 0}"`;
  if (spacing.line !== base.line || spacing.lineRule !== base.lineRule) {
    const line = spacing.lineRule === 'auto' ? toLineUnits(spacing.line) : toTwips(spacing.line);
    attributes += ` w:line="${line}" w:lineRule="${spacing.lineRule}"`;
  }
  return attributes === '' ? '' : `<w:spacing${attributes}/>`;
}

/** w:ind (§17.3.1.12): left/right, and firstLine or hanging (a negative first line). */
function indentXml(indent: ParagraphProperties['indent'], base: ParagraphProperties['indent']): string {
  let attributes = '';
  if (indent.left !== base.left) attributes += ` w:left="${toTwips(indent.left)}"`;
  if (indent.right !== base.right) attributes += ` w:right="${toTwips(indent.right)}"`;
  if (indent.firstLine !== base.firstLine) {
    attributes +=
      indent.firstLine < 0
        ? ` w:hanging="${toTwips(-indent.firstLine)}"`
        : ` w:firstLine="${toTwips(indent.firstLine)}"`;
  }
  return attributes === '' ? '' : `<w:ind${attributes}/>`;
}
