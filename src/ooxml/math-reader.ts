/**
 * Office Math (ECMA-376 Part 1 §22.1) into the model's math tree (src/model/math.ts), the inverse
 * of src/docx-writer/math-writer.ts: what the DOCX writer writes reads back as it was, and Word's
 * other structures map to the nearest node (function applications and equation arrays as
 * sequences and one-column matrices, bars and border boxes as groups). Depth-capped: content
 * deeper than MAX_MATH_DEPTH gives its text only.
 */
import {
  MAX_MATRIX_COLUMNS,
  MAX_MATRIX_ROWS,
  type MathList,
  type MathNode,
  type MathScript,
  type MathStyle,
} from '../model/math';
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

/** The equation of an m:oMath element. */
export function readOfficeMath(math: XmlElement): MathList {
  return sequence(math, 0);
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

/** An argument slot (m:e, m:num, m:sub…) by name; absent reads as empty. */
function slot(parent: XmlElement, name: string, depth: number): MathList {
  const element = child(parent, name);
  return element === undefined ? [] : sequence(element, depth + 1);
}

function sequence(container: XmlElement, depth: number): MathList {
  if (depth > MAX_MATH_DEPTH) {
    const text = textInside(container);
    return text === '' ? [] : [{ kind: 'run', text }];
  }
  const out: MathList = [];
  for (const element of container.children) for (const node of nodeOf(element, depth)) out.push(node);
  return out;
}

function nodeOf(element: XmlElement, depth: number): MathList {
  switch (element.name) {
    case 'm:r':
      return runOf(element);
    case 'w:r': {
      // Ordinary text placed in an equation (a Word run, §22.1.2.87's alternative).
      const text = textInside(element);
      return text === '' ? [] : [{ kind: 'run', text, normal: true }];
    }
    case 'm:f': {
      const node: MathNode = {
        kind: 'fraction',
        numerator: slot(element, 'm:num', depth),
        denominator: slot(element, 'm:den', depth),
      };
      if (propertyValue(child(element, 'm:fPr'), 'm:type') === 'noBar') node.noBar = true;
      return [node];
    }
    case 'm:rad': {
      const base = slot(element, 'm:e', depth);
      const degree = slot(element, 'm:deg', depth);
      // An empty degree is a square root whether or not m:degHide says so.
      return [
        flag(child(element, 'm:radPr'), 'm:degHide') || degree.length === 0
          ? { kind: 'radical', base }
          : { kind: 'radical', base, degree },
      ];
    }
    case 'm:sSub':
      return [{ kind: 'scripts', base: slot(element, 'm:e', depth), sub: slot(element, 'm:sub', depth) }];
    case 'm:sSup':
      return [{ kind: 'scripts', base: slot(element, 'm:e', depth), sup: slot(element, 'm:sup', depth) }];
    case 'm:sSubSup':
      return [
        {
          kind: 'scripts',
          base: slot(element, 'm:e', depth),
          sub: slot(element, 'm:sub', depth),
          sup: slot(element, 'm:sup', depth),
        },
      ];
    case 'm:sPre':
      // Prescripts (§22.1.2.99): the scripts on an empty base, then the base.
      return [
        { kind: 'scripts', base: [], sub: slot(element, 'm:sub', depth), sup: slot(element, 'm:sup', depth) },
        ...slot(element, 'm:e', depth),
      ];
    case 'm:nary':
      return [naryOf(element, depth)];
    case 'm:limLow':
    case 'm:limUpp':
      return [
        {
          kind: 'limit',
          position: element.name === 'm:limLow' ? 'under' : 'over',
          base: slot(element, 'm:e', depth),
          limit: slot(element, 'm:lim', depth),
        },
      ];
    case 'm:acc':
      // §22.1.2.20: without m:chr the accent is a combining circumflex.
      return [
        {
          kind: 'accent',
          accent: propertyValue(child(element, 'm:accPr'), 'm:chr') ?? '\u0302',
          base: slot(element, 'm:e', depth),
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
          base: slot(element, 'm:e', depth),
          limit: [{ kind: 'run', text: chr }],
        },
      ];
    }
    case 'm:d':
      return [delimitedOf(element, depth)];
    case 'm:m': {
      const rows: MathList[][] = [];
      for (const row of element.children) {
        if (row.name !== 'm:mr') continue;
        const cells = row.children.filter((c) => c.name === 'm:e').slice(0, MAX_MATRIX_COLUMNS);
        rows.push(cells.map((cell) => sequence(cell, depth + 2)));
        if (rows.length >= MAX_MATRIX_ROWS) break;
      }
      const columns = rows.reduce((most, r) => Math.max(most, r.length), 1);
      for (const row of rows) while (row.length < columns) row.push([]);
      return [{ kind: 'matrix', rows: rows.length > 0 ? rows : [[[]]] }];
    }
    case 'm:eqArr': {
      // An equation array (§22.1.2.34): its lines as the rows of a one-column matrix.
      const rows = element.children.filter((c) => c.name === 'm:e').map((line) => [sequence(line, depth + 1)]);
      return rows.length > 0 ? [{ kind: 'matrix', rows }] : [];
    }
    case 'm:box':
    case 'm:borderBox':
    case 'm:bar': {
      const content = slot(element, 'm:e', depth);
      return element.name === 'm:box' ? [{ kind: 'group', content }] : content;
    }
    case 'm:phant':
      return [{ kind: 'phantom', content: slot(element, 'm:e', depth) }];
    case 'm:func':
      // A function application (§22.1.2.39): its name, then its argument.
      return [...slot(element, 'm:fName', depth), ...slot(element, 'm:e', depth)];
    case 'm:oMath':
    case 'm:e':
      return sequence(element, depth + 1);
    default:
      // Properties (m:*Pr, m:ctrlPr, w:rPr) carry no content; containers (w:ins, w:sdt…) do.
      return element.name.endsWith('Pr') ? [] : sequence(element, depth + 1);
  }
}

/** m:r (§22.1.2.87): its text, and m:rPr's nor, or its scr and sty (§22.1.2.91). */
function runOf(element: XmlElement): MathList {
  let text = '';
  for (const item of element.children) {
    if (item.name === 'm:t') text += item.text;
    else if (item.name === 'w:tab') text += '\t';
  }
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
function naryOf(element: XmlElement, depth: number): MathNode {
  const properties = child(element, 'm:naryPr');
  const operator = propertyValue(properties, 'm:chr') || '\u222B';
  const location = propertyValue(properties, 'm:limLoc');
  const integral = /[\u222B-\u2233\u2A0C-\u2A1C]/.test(operator);
  const limits = location === 'undOvr' ? 'underOver' : location === 'subSup' || integral ? 'scripts' : 'underOver';
  const node: MathNode = { kind: 'nary', operator, limits, base: slot(element, 'm:e', depth) };
  if (!flag(properties, 'm:subHide')) node.sub = slot(element, 'm:sub', depth);
  if (!flag(properties, 'm:supHide')) node.sup = slot(element, 'm:sup', depth);
  return node;
}

/** m:d (§22.1.2.24): fences default to parentheses and the separator to a bar (§22.1.2.31). */
function delimitedOf(element: XmlElement, depth: number): MathNode {
  const properties = child(element, 'm:dPr');
  const items = element.children.filter((c) => c.name === 'm:e').map((item) => sequence(item, depth + 1));
  const node: MathNode = {
    kind: 'delimited',
    open: propertyValue(properties, 'm:begChr') ?? '(',
    close: propertyValue(properties, 'm:endChr') ?? ')',
    items,
  };
  if (items.length > 1) node.separator = propertyValue(properties, 'm:sepChr') ?? '|';
  return node;
}
