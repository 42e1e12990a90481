/**
 * Office Math (ECMA-376 Part 1 §22.1) into the model's math tree (src/engine/model/math.ts), the inverse
 * of src/engine/write/docx/math-writer.ts: what the DOCX writer writes reads back as it was, and Word's
 * other structures map to the nearest node (function applications and equation arrays as
 * sequences and one-column matrices, group characters as limits). Depth-capped: content deeper
 * than MAX_MATH_DEPTH gives its text only.
 */
import {
  MAX_MATRIX_COLUMNS,
  MAX_MATRIX_ROWS,
  type MathColumnAlign,
  type MathList,
  type MathNode,
  type MathScript,
  type MathSide,
  type MathStrike,
  type MathStyle,
} from '../../model';
import { mapSymbolCharacter } from '../../text';
import { onOff } from './units';
import { child, type XmlElement } from './xml-tree';

const MAX_MATH_DEPTH = 200;

/** ST_Style (§22.1.2.112). */
const STYLES: Record<string, MathStyle> = { p: 'plain', b: 'bold', i: 'italic', bi: 'boldItalic' };
const SCRIPTS: ReadonlySet<string> = new Set([
  'roman',
  'script',
  'fraktur',
  'double-struck',
  'sans-serif',
  'monospace',
]);

/** Says what an equation holds that is not drawn (a picture, a note reference). */
export type MathWarn = (message: string) => void;

/** The equation of an m:oMath element; `warn` hears of content in it that is not drawn. */
export function readOfficeMath(math: XmlElement, warn: MathWarn = () => {}): MathList {
  return new OfficeMathReader(warn).sequence(math, 0);
}

/**
 * m:oMathPara's justification (m:oMathParaPr/m:jc, §22.1.2.51): its equations as a group, centred
 * by default (centerGroup), or at the left or right margin.
 */
export function officeMathJustification(mathPara: XmlElement): 'left' | 'right' | 'center' {
  const value = propertyValue(child(mathPara, 'm:oMathParaPr'), 'm:jc');
  return value === 'left' || value === 'right' ? value : 'center';
}

/** m:val of a property element, undefined when absent. */
function propertyValue(properties: XmlElement | undefined, name: string): string | undefined {
  const element = properties === undefined ? undefined : child(properties, name);
  return element?.attributes['m:val'];
}

/** An on/off property (ST_OnOff): present without a value means on. */
function flag(properties: XmlElement | undefined, name: string): boolean {
  const element = properties === undefined ? undefined : child(properties, name);
  if (element === undefined) return false;
  const value = element.attributes['m:val'];
  return value === undefined || onOff(value);
}

/** The text of every m:t and w:t inside, iteratively (what content beyond the depth cap gives). */
function textInside(element: XmlElement): string {
  const parts: string[] = [];
  const stack: XmlElement[] = [element];
  while (stack.length > 0) {
    const item = stack.pop() as XmlElement;
    if (item.name === 'm:t' || item.name === 'w:t') parts.push(item.text);
    else for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i] as XmlElement);
  }
  return parts.join('');
}

/**
 * The alignment of a matrix's columns (m:mcs, §22.1.2.64: m:mc groups of m:count columns, each
 * aligned by m:mcJc), or undefined when every column is centred (the default).
 */
function columnAligns(properties: XmlElement | undefined, columns: number): MathColumnAlign[] | undefined {
  const groups = properties === undefined ? undefined : child(properties, 'm:mcs');
  if (groups === undefined) return undefined;
  const aligns: MathColumnAlign[] = [];
  for (const group of groups.children) {
    if (group.name !== 'm:mc' || aligns.length >= columns) continue;
    const groupProperties = child(group, 'm:mcPr');
    const count = Number.parseInt(propertyValue(groupProperties, 'm:count') ?? '1', 10);
    const value = propertyValue(groupProperties, 'm:mcJc');
    const align: MathColumnAlign = value === 'left' || value === 'right' ? value : 'center';
    const n = Number.isFinite(count) && count > 0 ? Math.min(count, columns - aligns.length) : 1;
    for (let i = 0; i < n; i++) aligns.push(align);
  }
  while (aligns.length < columns) aligns.push('center');
  return aligns.every((a) => a === 'center') ? undefined : aligns;
}

const BORDER_SIDES: [MathSide, string][] = [
  ['top', 'm:hideTop'],
  ['bottom', 'm:hideBot'],
  ['left', 'm:hideLeft'],
  ['right', 'm:hideRight'],
];
const BORDER_STRIKES: [MathStrike, string][] = [
  ['horizontal', 'm:strikeH'],
  ['vertical', 'm:strikeV'],
  ['up', 'm:strikeBLTR'],
  ['down', 'm:strikeTLBR'],
];

/** Reads one equation, telling `warn` of what it holds that is not drawn. */
class OfficeMathReader {
  private readonly warn: MathWarn;

  constructor(warn: MathWarn) {
    this.warn = warn;
  }

  /** An argument slot (m:e, m:num, m:sub…) by name; absent reads as empty. */
  slot(parent: XmlElement, name: string, depth: number): MathList {
    const element = child(parent, name);
    return element === undefined ? [] : this.sequence(element, depth + 1);
  }

  sequence(container: XmlElement, depth: number): MathList {
    if (depth > MAX_MATH_DEPTH) {
      const text = textInside(container);
      return text === '' ? [] : [{ kind: 'run', text }];
    }
    const out: MathList = [];
    for (const element of container.children) for (const node of this.nodeOf(element, depth)) out.push(node);
    return out;
  }

  nodeOf(element: XmlElement, depth: number): MathList {
    switch (element.name) {
      case 'm:r':
        return this.runOf(element);
      case 'w:r': {
        // Ordinary text placed in an equation (a Word run, §22.1.2.87's alternative).
        const text = this.runText(element);
        return text === '' ? [] : [{ kind: 'run', text, normal: true }];
      }
      case 'm:f': {
        const node: MathNode = {
          kind: 'fraction',
          numerator: this.slot(element, 'm:num', depth),
          denominator: this.slot(element, 'm:den', depth),
        };
        if (propertyValue(child(element, 'm:fPr'), 'm:type') === 'noBar') node.noBar = true;
        return [node];
      }
      case 'm:rad': {
        const base = this.slot(element, 'm:e', depth);
        const degree = this.slot(element, 'm:deg', depth);
        // An empty degree is a square root whether or not m:degHide says so.
        return [
          flag(child(element, 'm:radPr'), 'm:degHide') || degree.length === 0
            ? { kind: 'radical', base }
            : { kind: 'radical', base, degree },
        ];
      }
      case 'm:sSub':
        return [{ kind: 'scripts', base: this.slot(element, 'm:e', depth), sub: this.slot(element, 'm:sub', depth) }];
      case 'm:sSup':
        return [{ kind: 'scripts', base: this.slot(element, 'm:e', depth), sup: this.slot(element, 'm:sup', depth) }];
      case 'm:sSubSup':
        return [
          {
            kind: 'scripts',
            base: this.slot(element, 'm:e', depth),
            sub: this.slot(element, 'm:sub', depth),
            sup: this.slot(element, 'm:sup', depth),
          },
        ];
      case 'm:sPre':
        // Prescripts (§22.1.2.99): the scripts on an empty base, then the base.
        return [
          {
            kind: 'scripts',
            base: [],
            sub: this.slot(element, 'm:sub', depth),
            sup: this.slot(element, 'm:sup', depth),
          },
          ...this.slot(element, 'm:e', depth),
        ];
      case 'm:nary':
        return [this.naryOf(element, depth)];
      case 'm:limLow':
      case 'm:limUpp':
        return [
          {
            kind: 'limit',
            position: element.name === 'm:limLow' ? 'under' : 'over',
            base: this.slot(element, 'm:e', depth),
            limit: this.slot(element, 'm:lim', depth),
          },
        ];
      case 'm:acc':
        // §22.1.2.20: without m:chr the accent is a combining circumflex.
        return [
          {
            kind: 'accent',
            accent: propertyValue(child(element, 'm:accPr'), 'm:chr') ?? '\u0302',
            base: this.slot(element, 'm:e', depth),
          },
        ];
      case 'm:groupChr': {
        // §22.1.2.41: a character (by default an under-brace) under or over the base.
        const properties = child(element, 'm:groupChrPr');
        const over = propertyValue(properties, 'm:pos') === 'top';
        const chr = propertyValue(properties, 'm:chr') ?? (over ? '\u23DE' : '\u23DF');
        return [
          {
            kind: 'limit',
            position: over ? 'over' : 'under',
            base: this.slot(element, 'm:e', depth),
            limit: [{ kind: 'run', text: chr }],
          },
        ];
      }
      case 'm:d':
        return [this.delimitedOf(element, depth)];
      case 'm:m': {
        const rows: MathList[][] = [];
        for (const row of element.children) {
          if (row.name !== 'm:mr') continue;
          const cells = row.children.filter((c) => c.name === 'm:e').slice(0, MAX_MATRIX_COLUMNS);
          rows.push(cells.map((cell) => this.sequence(cell, depth + 2)));
          if (rows.length >= MAX_MATRIX_ROWS) break;
        }
        const columns = rows.reduce((most, r) => Math.max(most, r.length), 1);
        for (const row of rows) while (row.length < columns) row.push([]);
        const node: MathNode = { kind: 'matrix', rows: rows.length > 0 ? rows : [[[]]] };
        const aligns = columnAligns(child(element, 'm:mPr'), columns);
        if (aligns) node.columns = aligns;
        return [node];
      }
      case 'm:eqArr': {
        // An equation array (§22.1.2.34): its lines as the rows of a one-column matrix.
        const rows = element.children.filter((c) => c.name === 'm:e').map((line) => [this.sequence(line, depth + 1)]);
        return rows.length > 0 ? [{ kind: 'matrix', rows }] : [];
      }
      case 'm:box':
        return [{ kind: 'group', content: this.slot(element, 'm:e', depth) }];
      case 'm:bar':
        // §22.1.2.7: under the base unless m:pos is top (§22.1.2.84).
        return [
          {
            kind: 'bar',
            position: propertyValue(child(element, 'm:barPr'), 'm:pos') === 'top' ? 'top' : 'bottom',
            base: this.slot(element, 'm:e', depth),
          },
        ];
      case 'm:borderBox':
        return [this.borderBoxOf(element, depth)];
      case 'm:phant': {
        // §22.1.2.96: the content shows unless m:show is off; a shown phantom only changes the
        // room it takes (m:zeroWid, m:zeroAsc, m:zeroDesc), which is a group here.
        const properties = child(element, 'm:phantPr');
        const content = this.slot(element, 'm:e', depth);
        const hidden =
          properties !== undefined && child(properties, 'm:show') !== undefined && !flag(properties, 'm:show');
        return [hidden ? { kind: 'phantom', content } : { kind: 'group', content }];
      }
      case 'm:func':
        // A function application (§22.1.2.39): its name, then its argument.
        return [...this.slot(element, 'm:fName', depth), ...this.slot(element, 'm:e', depth)];
      case 'm:oMath':
      case 'm:e':
        return this.sequence(element, depth + 1);
      default:
        // Properties (m:*Pr, m:ctrlPr, w:rPr) carry no content; containers (w:ins, w:sdt…) do.
        return element.name.endsWith('Pr') ? [] : this.sequence(element, depth + 1);
    }
  }

  /**
   * The text of a math or Word run in an equation: m:r holds Word's run content too (§22.1.2.87,
   * EG_RunInnerContent), so w:t, tabs, symbols (§17.3.3.30) and non-breaking hyphens are text.
   * Pictures, objects and note references in an equation are not drawn, and said so.
   */
  runText(element: XmlElement): string {
    let text = '';
    for (const item of element.children) {
      switch (item.name) {
        case 'm:t':
        case 'w:t':
          text += item.text;
          break;
        case 'w:tab':
          text += '\t';
          break;
        case 'w:br':
        case 'w:cr':
          // A break inside an equation: the equation is set on one line here.
          text += ' ';
          break;
        case 'w:noBreakHyphen':
          text += '\u2011';
          break;
        case 'w:sym': {
          const code = Number.parseInt(item.attributes['w:char'] ?? '', 16);
          if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) break;
          text += mapSymbolCharacter(code, item.attributes['w:font']) ?? String.fromCodePoint(code);
          break;
        }
        case 'w:drawing':
        case 'w:pict':
        case 'w:object':
          this.warn('A picture or object inside an equation is not drawn.');
          break;
        case 'w:footnoteReference':
        case 'w:endnoteReference':
          this.warn('A note reference inside an equation is not drawn; its note is not numbered there.');
          break;
      }
    }
    return text;
  }

  /** m:r (§22.1.2.87): its text, and m:rPr's nor, or its scr and sty (§22.1.2.91). */
  runOf(element: XmlElement): MathList {
    const text = this.runText(element);
    if (text === '') return [];
    const node: MathNode = { kind: 'run', text };
    const properties = child(element, 'm:rPr');
    if (flag(properties, 'm:nor')) {
      node.normal = true;
      // Ordinary text's bold and italic are the Word run's (w:rPr), as m:sty does not apply.
      const word = child(element, 'w:rPr');
      const bold = word !== undefined && child(word, 'w:b') !== undefined;
      const italic = word !== undefined && child(word, 'w:i') !== undefined;
      if (bold || italic) node.style = bold && italic ? 'boldItalic' : bold ? 'bold' : 'italic';
    } else {
      const script = propertyValue(properties, 'm:scr');
      if (script !== undefined && SCRIPTS.has(script)) node.script = script as MathScript;
      const style = STYLES[propertyValue(properties, 'm:sty') ?? ''];
      if (style !== undefined) node.style = style;
    }
    return [node];
  }

  /**
   * m:nary (§22.1.2.70). Without m:chr the operator is the integral sign; without m:limLoc the
   * limits of integrals are scripts and those of other operators sit under and over (Word's
   * default m:intLim subSup and m:naryLim undOvr, §22.1.2.49, §22.1.2.69).
   */
  naryOf(element: XmlElement, depth: number): MathNode {
    const properties = child(element, 'm:naryPr');
    const operator = propertyValue(properties, 'm:chr') || '\u222B';
    const location = propertyValue(properties, 'm:limLoc');
    const integral = /[\u222B-\u2233\u2A0C-\u2A1C]/.test(operator);
    const limits = location === 'undOvr' ? 'underOver' : location === 'subSup' || integral ? 'scripts' : 'underOver';
    const node: MathNode = { kind: 'nary', operator, limits, base: this.slot(element, 'm:e', depth) };
    if (!flag(properties, 'm:subHide')) node.sub = this.slot(element, 'm:sub', depth);
    if (!flag(properties, 'm:supHide')) node.sup = this.slot(element, 'm:sup', depth);
    return node;
  }

  /**
   * m:borderBox (§22.1.2.11): every side drawn unless m:hideTop, m:hideBot, m:hideLeft or
   * m:hideRight hides it, and the strikes m:strikeH, m:strikeV, m:strikeBLTR, m:strikeTLBR ask for.
   */
  borderBoxOf(element: XmlElement, depth: number): MathNode {
    const properties = child(element, 'm:borderBoxPr');
    const sides: MathSide[] = [];
    for (const [side, name] of BORDER_SIDES) if (!flag(properties, name)) sides.push(side);
    const strikes: MathStrike[] = [];
    for (const [strike, name] of BORDER_STRIKES) if (flag(properties, name)) strikes.push(strike);
    const node: MathNode = { kind: 'enclosed', content: this.slot(element, 'm:e', depth), sides };
    if (strikes.length > 0) node.strikes = strikes;
    return node;
  }

  /** m:d (§22.1.2.24): fences default to parentheses and the separator to a bar (§22.1.2.31). */
  delimitedOf(element: XmlElement, depth: number): MathNode {
    const properties = child(element, 'm:dPr');
    const items = element.children.filter((c) => c.name === 'm:e').map((item) => this.sequence(item, depth + 1));
    const node: MathNode = {
      kind: 'delimited',
      open: propertyValue(properties, 'm:begChr') ?? '(',
      close: propertyValue(properties, 'm:endChr') ?? ')',
      items,
    };
    if (items.length > 1) node.separator = propertyValue(properties, 'm:sepChr') ?? '|';
    return node;
  }
}
