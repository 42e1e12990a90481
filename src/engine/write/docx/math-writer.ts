/**
 * The model's math (src/engine/model/math.ts) as Office Math Markup (ECMA-376 Part 1 §22.1): m:oMath in
 * the line for inline math, m:oMathPara around it for display math (§22.1.2.77–78). Math runs
 * carry no w:rPr: Word sets them in the document's math font (Cambria Math) at the paragraph's
 * size, as it does equations typed in.
 */
import type { MathInline, MathList, MathNode, MathScript, MathSide, MathStrike, MathStyle } from '../../model';
import { escapeAttribute, escapeText } from './xml-escape';

const BORDER_SIDES: [MathSide, string][] = [
  ['top', 'hideTop'],
  ['bottom', 'hideBot'],
  ['left', 'hideLeft'],
  ['right', 'hideRight'],
];
const BORDER_STRIKES: [MathStrike, string][] = [
  ['horizontal', 'strikeH'],
  ['vertical', 'strikeV'],
  ['up', 'strikeBLTR'],
  ['down', 'strikeTLBR'],
];

/** m:sty values (§22.1.2.112, ST_Style). */
const STYLE: Record<MathStyle, string> = { plain: 'p', bold: 'b', italic: 'i', boldItalic: 'bi' };

export function mathXml(inline: MathInline): string {
  if (inline.nodes.length === 0) return '';
  const math = `<m:oMath>${listXml(inline.nodes)}</m:oMath>`;
  return inline.display ? `<m:oMathPara>${math}</m:oMathPara>` : math;
}

/** A sequence; the reader caps the tree's depth, so recursion here is bounded. */
function listXml(nodes: MathList | undefined): string {
  let xml = '';
  for (const node of nodes ?? []) xml += nodeXml(node);
  return xml;
}

/** An argument slot (m:e, m:num, m:sub…): present even when empty, as the schema requires. */
function slot(name: string, nodes: MathList | undefined): string {
  const content = listXml(nodes);
  return content === '' ? `<m:${name}/>` : `<m:${name}>${content}</m:${name}>`;
}

function val(name: string, value: string): string {
  return `<m:${name} m:val="${escapeAttribute(value)}"/>`;
}

function nodeXml(node: MathNode): string {
  switch (node.kind) {
    case 'run':
      return runXml(node.text, node.style, node.script, node.normal);
    case 'fraction': {
      // §22.1.2.36: m:type noBar stacks without the rule (a binomial's shape).
      const properties = node.noBar ? `<m:fPr>${val('type', 'noBar')}</m:fPr>` : '';
      return `<m:f>${properties}${slot('num', node.numerator)}${slot('den', node.denominator)}</m:f>`;
    }
    case 'radical':
      // §22.1.2.88: m:deg is always present; a square root hides it (m:degHide).
      return node.degree === undefined
        ? `<m:rad><m:radPr>${val('degHide', '1')}</m:radPr><m:deg/>${slot('e', node.base)}</m:rad>`
        : `<m:rad>${slot('deg', node.degree)}${slot('e', node.base)}</m:rad>`;
    case 'scripts': {
      const base = slot('e', node.base);
      if (node.sub !== undefined && node.sup !== undefined)
        return `<m:sSubSup>${base}${slot('sub', node.sub)}${slot('sup', node.sup)}</m:sSubSup>`;
      if (node.sub !== undefined) return `<m:sSub>${base}${slot('sub', node.sub)}</m:sSub>`;
      return `<m:sSup>${base}${slot('sup', node.sup)}</m:sSup>`;
    }
    case 'nary': {
      // §22.1.2.72 CT_NaryPr: chr, limLoc, grow, subHide, supHide in this order; chr is always
      // written, its default being the integral sign.
      let properties = val('chr', node.operator) + val('limLoc', node.limits === 'underOver' ? 'undOvr' : 'subSup');
      if (node.sub === undefined) properties += val('subHide', '1');
      if (node.sup === undefined) properties += val('supHide', '1');
      return `<m:nary><m:naryPr>${properties}</m:naryPr>${slot('sub', node.sub)}${slot('sup', node.sup)}${slot('e', node.base)}</m:nary>`;
    }
    case 'limit': {
      const name = node.position === 'under' ? 'limLow' : 'limUpp';
      return `<m:${name}>${slot('e', node.base)}${slot('lim', node.limit)}</m:${name}>`;
    }
    case 'accent':
      return `<m:acc><m:accPr>${val('chr', node.accent)}</m:accPr>${slot('e', node.base)}</m:acc>`;
    case 'delimited': {
      // §22.1.2.31 CT_DPr: begChr, sepChr, endChr; an empty value is no fence at that side.
      let properties = val('begChr', node.open);
      if (node.separator !== undefined) properties += val('sepChr', node.separator);
      properties += val('endChr', node.close);
      let items = '';
      for (const item of node.items.length > 0 ? node.items : [[]]) items += slot('e', item);
      return `<m:d><m:dPr>${properties}</m:dPr>${items}</m:d>`;
    }
    case 'matrix': {
      // §22.1.2.60: the column count (m:mcs/m:mc/m:count) is what readers size the grid by.
      const columns = node.rows.reduce((most, row) => Math.max(most, row.length), 1);
      // One m:mc per run of columns aligned alike (m:mcJc, §22.1.2.62).
      let groups = '';
      for (let c = 0; c < columns; ) {
        const align = node.columns?.[c] ?? 'center';
        let count = 1;
        while (c + count < columns && (node.columns?.[c + count] ?? 'center') === align) count++;
        groups += `<m:mc><m:mcPr>${val('count', String(count))}${val('mcJc', align)}</m:mcPr></m:mc>`;
        c += count;
      }
      const properties = `<m:mPr><m:mcs>${groups}</m:mcs></m:mPr>`;
      let rows = '';
      for (const row of node.rows) {
        let cells = '';
        for (let c = 0; c < columns; c++) cells += slot('e', row[c]);
        rows += `<m:mr>${cells}</m:mr>`;
      }
      return `<m:m>${properties}${rows}</m:m>`;
    }
    case 'group':
      return `<m:box>${slot('e', node.content)}</m:box>`;
    case 'bar':
      // §22.1.2.7: the bar is under the base unless m:pos says top.
      return `<m:bar><m:barPr>${val('pos', node.position === 'top' ? 'top' : 'bot')}</m:barPr>${slot('e', node.base)}</m:bar>`;
    case 'enclosed': {
      // §22.1.2.12 CT_BorderBoxPr: hideTop, hideBot, hideLeft, hideRight, strikeH, strikeV,
      // strikeBLTR, strikeTLBR in this order; every side is drawn unless hidden.
      let properties = '';
      for (const [side, name] of BORDER_SIDES) if (!node.sides.includes(side)) properties += val(name, '1');
      for (const [strike, name] of BORDER_STRIKES) if (node.strikes?.includes(strike)) properties += val(name, '1');
      const pr = properties === '' ? '' : `<m:borderBoxPr>${properties}</m:borderBoxPr>`;
      return `<m:borderBox>${pr}${slot('e', node.content)}</m:borderBox>`;
    }
    case 'phantom':
      // §22.1.2.96: a phantom shows its content unless m:show is off.
      return `<m:phant><m:phantPr>${val('show', '0')}</m:phantPr>${slot('e', node.content)}</m:phant>`;
  }
}

/**
 * m:r (§22.1.2.87) with m:rPr (§22.1.2.91: lit, then nor or scr and sty): ordinary text is m:nor
 * (§22.1.2.73); otherwise the script and style, when not the default math style.
 */
function runXml(text: string, style: MathStyle | undefined, script: MathScript | undefined, normal?: true): string {
  if (text === '') return '';
  let properties = '';
  let wordProperties = '';
  if (normal) {
    properties = '<m:nor/>';
    // m:nor excludes m:sty (§22.1.2.91): ordinary text takes bold and italic as a Word run does.
    if (style === 'bold' || style === 'boldItalic') wordProperties += '<w:b/>';
    if (style === 'italic' || style === 'boldItalic') wordProperties += '<w:i/>';
  } else {
    if (script !== undefined) properties += val('scr', script);
    if (style !== undefined) properties += val('sty', STYLE[style]);
  }
  const rPr =
    (properties === '' ? '' : `<m:rPr>${properties}</m:rPr>`) +
    (wordProperties === '' ? '' : `<w:rPr>${wordProperties}</w:rPr>`);
  return `<m:r>${rPr}<m:t xml:space="preserve">${escapeText(text)}</m:t></m:r>`;
}
