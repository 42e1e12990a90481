/**
 * MathML (Presentation Markup, MathML 3 §3) to the model's math tree (src/engine/model/math.ts), mapped
 * as Word maps pasted MathML onto Office Math (Microsoft's MML2OMML.XSL): token elements become
 * runs, mrow a sequence (a group inside a sequence), mfrac a fraction, msqrt/mroot radicals,
 * scripts, large operators with their limits as n-ary operators, accents, fenced rows as
 * delimiters, mtable a matrix. Recursion is capped by the caller's depth budget: deeper content
 * gives its text only, so hostile nesting costs one iterative text walk.
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
import { attribute, type ChildNode, type Element, isElement, isText, tagName, textContent } from './html-tree';

/** XML white space (MathML 3 §2.1.7 trims and collapses only these: no-break spaces are content). */
const XML_SPACE = /[ \t\n\r]+/g;
const XML_SPACE_EDGES = /^[ \t\n\r]+|[ \t\n\r]+$/g;

/** Large operators Word sets as n-ary (m:nary, ECMA-376 Part 1 §22.1.2.70) with their limits. */
const NARY_OPERATORS = new Set([
  '\u2211', // ∑
  '\u220F', // ∏
  '\u2210', // ∐
  '\u222B', // ∫
  '\u222C', // ∬
  '\u222D', // ∭
  '\u222E', // ∮
  '\u222F', // ∯
  '\u2230', // ∰
  '\u2231',
  '\u2232',
  '\u2233',
  '\u22C0', // ⋀
  '\u22C1', // ⋁
  '\u22C2', // ⋂
  '\u22C3', // ⋃
  '\u2A00',
  '\u2A01',
  '\u2A02',
  '\u2A04',
  '\u2A06',
  '\u2A0C',
]);

/**
 * Operators the MathML operator dictionary (MathML 3 Appendix C) marks as accents: over a base
 * without an explicit accent attribute they are accents (§3.4.5.2), m:acc in Office Math.
 */
const ACCENTS = new Set([
  '^',
  '~',
  '`',
  '\u00A8', // ¨
  '\u00AF', // ¯
  '\u00B4', // ´
  '\u00B8', // ¸
  '\u02C6', // ˆ
  '\u02C7', // ˇ
  '\u02C9', // ˉ
  '\u02CA',
  '\u02CB',
  '\u02D8', // ˘
  '\u02D9', // ˙
  '\u02DA', // ˚
  '\u02DC', // ˜
  '\u02DD', // ˝
  '\u203E', // ‾
  '\u2190', // ←
  '\u2192', // →
  '\u2194', // ↔
  '\u20D7',
  '\u21C0', // ⇀
  '\u21BC', // ↼
]);

/** Fences that open and close a delimited row (m:d, §22.1.2.24) when they are stretchy. */
const OPENING_FENCES = new Set(['(', '[', '{', '|', '\u2016', '\u2308', '\u230A', '\u27E8', '\u2329', '\u27E6']);
const CLOSING_FENCES = new Set([')', ']', '}', '|', '\u2016', '\u2309', '\u230B', '\u27E9', '\u232A', '\u27E7']);

/** mathvariant (MathML 3 §3.2.2) as Office Math's script and style (m:scr, m:sty). */
const VARIANTS: Record<string, { style?: MathStyle; script?: MathScript }> = {
  normal: { style: 'plain' },
  bold: { style: 'bold' },
  italic: { style: 'italic' },
  'bold-italic': { style: 'boldItalic' },
  'double-struck': { script: 'double-struck', style: 'plain' },
  'bold-fraktur': { script: 'fraktur', style: 'bold' },
  script: { script: 'script', style: 'plain' },
  'bold-script': { script: 'script', style: 'bold' },
  fraktur: { script: 'fraktur', style: 'plain' },
  'sans-serif': { script: 'sans-serif', style: 'plain' },
  'bold-sans-serif': { script: 'sans-serif', style: 'bold' },
  'sans-serif-italic': { script: 'sans-serif', style: 'italic' },
  'sans-serif-bold-italic': { script: 'sans-serif', style: 'boldItalic' },
  monospace: { script: 'monospace', style: 'plain' },
};

/** Named spaces (MathML 3 §3.3.4.2), in em; the negative ones take no room here. */
const NAMED_SPACES: Record<string, number> = {
  veryverythinmathspace: 1 / 18,
  verythinmathspace: 2 / 18,
  thinmathspace: 3 / 18,
  mediummathspace: 4 / 18,
  thickmathspace: 5 / 18,
  verythickmathspace: 6 / 18,
  veryverythickmathspace: 7 / 18,
};

/**
 * Unicode spaces by width in em (the widths TeX and Office Math give them), widest first: an
 * mspace becomes the nearest, repeated for widths beyond an em.
 */
const SPACES: [number, string][] = [
  [1, '\u2003'],
  [1 / 2, '\u2002'],
  [1 / 3, '\u2004'],
  [4 / 18, '\u205F'],
  [1 / 6, '\u2009'],
  [1 / 12, '\u200A'],
];

interface MathContext {
  /** Inherited mathvariant (mstyle), for tokens that set none. */
  variant?: string;
}

export interface ReadMath {
  display: boolean;
  nodes: MathList;
}

/** A `<math>` element as model math; `depthBudget` levels of elements are mapped, deeper ones give their text. */
export function readMathMl(math: Element, depthBudget: number): ReadMath {
  const mode = attribute(math, 'display')?.trim().toLowerCase() ?? attribute(math, 'mode')?.trim().toLowerCase();
  const display = mode === 'block' || mode === 'display';
  const reader = new MathMlReader(Math.max(0, depthBudget));
  let nodes = reader.row(math.children, contextOf(math, {}), 0);
  // The math element is an inferred mrow (§3.1.3.1): a lone group in it is the whole formula.
  const only = nodes[0];
  if (nodes.length === 1 && only?.kind === 'group') nodes = only.content;
  return { display, nodes };
}

function contextOf(element: Element, context: MathContext): MathContext {
  const variant = attribute(element, 'mathvariant')?.trim().toLowerCase();
  return variant && variant !== context.variant ? { ...context, variant } : context;
}

/** Token content: MathML 3 §2.1.7 trims XML white space at the ends and collapses it inside. */
function tokenText(element: Element): string {
  return textContent(element).replace(XML_SPACE_EDGES, '').replace(XML_SPACE, ' ');
}

function elementChildren(element: Element): Element[] {
  return element.children.filter((c): c is Element => isElement(c as ChildNode));
}

/**
 * An mo element and its operator text, or undefined. An mrow holding one mo and nothing else is
 * that mo: MathJax wraps sized fences so (\bigl( is <mrow><mo minsize="…">(</mo></mrow>).
 */
function operatorOf(element: Element | undefined): string | undefined {
  const mo = element && loneOperator(element);
  return mo ? tokenText(mo) : undefined;
}

function loneOperator(element: Element): Element | undefined {
  if (tagName(element) === 'mo') return element;
  if (tagName(element) !== 'mrow') return undefined;
  const elements = elementChildren(element);
  const only = elements[0];
  const text = element.children.some((c) => isText(c as ChildNode) && (c as { data: string }).data.trim() !== '');
  return elements.length === 1 && only && !text && tagName(only) === 'mo' ? only : undefined;
}

function isStretchyFence(element: Element | undefined, fences: ReadonlySet<string>): boolean {
  const text = operatorOf(element);
  if (text === undefined || !fences.has(text)) return false;
  // stretchy="false" (§3.2.5.2) asks for the character as it is: text, not a growing fence.
  const mo = loneOperator(element as Element) as Element;
  return attribute(mo, 'stretchy')?.trim().toLowerCase() !== 'false';
}

/** The large operator an element sets with limits (∑ under munderover, ∫ under msubsup), if any. */
function naryBase(element: Element): string | undefined {
  const tag = tagName(element);
  if (!/^(munderover|munder|mover|msubsup|msub|msup)$/.test(tag)) return undefined;
  const text = operatorOf(elementChildren(element)[0]);
  return text !== undefined && NARY_OPERATORS.has(text) ? text : undefined;
}

class MathMlReader {
  private readonly budget: number;

  constructor(budget: number) {
    this.budget = budget;
  }

  /**
   * A sequence (an mrow's children, or an inferred mrow's): fenced when it starts and ends with
   * stretchy fences, a large operator taking the element after it as its operand.
   */
  row(children: readonly ChildNode[], context: MathContext, depth: number): MathList {
    const elements: (Element | string)[] = [];
    for (const child of children) {
      if (isElement(child)) elements.push(child);
      else if (isText(child)) {
        // Text directly in a layout element is not MathML; shown as text rather than lost.
        const text = child.data.replace(XML_SPACE_EDGES, '').replace(XML_SPACE, ' ');
        if (text !== '') elements.push(text);
      }
    }
    const first = elements[0];
    const last = elements[elements.length - 1];
    if (
      elements.length >= 2 &&
      typeof first !== 'string' &&
      typeof last !== 'string' &&
      isStretchyFence(first, OPENING_FENCES) &&
      isStretchyFence(last, CLOSING_FENCES)
    ) {
      const inner = this.sequence(elements.slice(1, -1), context, depth);
      return [
        {
          kind: 'delimited',
          open: operatorOf(first) as string,
          close: operatorOf(last) as string,
          items: [inner],
        },
      ];
    }
    return this.sequence(elements, context, depth);
  }

  private sequence(elements: readonly (Element | string)[], context: MathContext, depth: number): MathList {
    const out: MathList = [];
    for (let i = 0; i < elements.length; i++) {
      const element = elements[i] as Element | string;
      if (typeof element === 'string') {
        out.push({ kind: 'run', text: element, normal: true });
        continue;
      }
      const operator = depth < this.budget ? naryBase(element) : undefined;
      if (operator !== undefined) {
        // Word's n-ary operator holds its operand (m:e): the element that follows it.
        const next = elements[i + 1];
        let base: MathList = [];
        if (next !== undefined) {
          base =
            typeof next === 'string' ? [{ kind: 'run', text: next, normal: true }] : this.slot(next, context, depth);
          i++;
        }
        out.push(this.nary(element, operator, base, context, depth));
        continue;
      }
      const nodes = this.element(element, context, depth);
      for (const node of nodes) out.push(node);
    }
    return out;
  }

  /** An argument slot filled by one element: an mrow there is the slot's sequence, not a group in it. */
  private slot(element: Element | undefined, context: MathContext, depth: number): MathList {
    if (element === undefined) return [];
    if (tagName(element) === 'mrow' && depth < this.budget)
      return this.row(element.children, contextOf(element, context), depth + 1);
    const nodes = this.element(element, context, depth);
    const only = nodes[0];
    return nodes.length === 1 && only?.kind === 'group' ? only.content : nodes;
  }

  private nary(element: Element, operator: string, base: MathList, context: MathContext, depth: number): MathNode {
    const tag = tagName(element);
    const inner = contextOf(element, context);
    const [, a, b] = elementChildren(element);
    const limits = tag.startsWith('mu') || tag === 'mover' ? 'underOver' : 'scripts';
    const node: MathNode = { kind: 'nary', operator, limits, base };
    if (tag === 'munderover' || tag === 'msubsup') {
      node.sub = this.slot(a, inner, depth + 1);
      node.sup = this.slot(b, inner, depth + 1);
    } else if (tag === 'munder' || tag === 'msub') node.sub = this.slot(a, inner, depth + 1);
    else node.sup = this.slot(a, inner, depth + 1);
    return node;
  }

  /** One element as the nodes it stands for (none, one, or a flattened sequence). */
  private element(element: Element, outer: MathContext, depth: number): MathList {
    const tag = tagName(element);
    if (depth >= this.budget) {
      const text = tokenText(element);
      return text === '' ? [] : [{ kind: 'run', text }];
    }
    const context = contextOf(element, outer);
    const children = elementChildren(element);
    const slot = (index: number) => this.slot(children[index], context, depth + 1);
    const inferred = () => this.row(element.children, context, depth + 1);
    switch (tag) {
      case 'mi':
      case 'mn':
      case 'mo':
      case 'mtext':
      case 'ms':
        return this.token(element, tag, context);
      case 'mglyph': {
        const alt = attribute(element, 'alt') ?? '';
        return alt === '' ? [] : [{ kind: 'run', text: alt }];
      }
      case 'mspace':
        return spaceOf(attribute(element, 'width'));
      case 'mfrac': {
        const node: MathNode = { kind: 'fraction', numerator: slot(0), denominator: slot(1) };
        if (/^\s*0+(\.0*)?\s*[a-z%]*\s*$/i.test(attribute(element, 'linethickness') ?? '')) node.noBar = true;
        return [node];
      }
      case 'msqrt':
        return [{ kind: 'radical', base: inferred() }];
      case 'mroot':
        return [{ kind: 'radical', base: slot(0), degree: slot(1) }];
      case 'msub':
        return [{ kind: 'scripts', base: slot(0), sub: slot(1) }];
      case 'msup':
        return [{ kind: 'scripts', base: slot(0), sup: slot(1) }];
      case 'msubsup':
        return [{ kind: 'scripts', base: slot(0), sub: slot(1), sup: slot(2) }];
      case 'mmultiscripts':
        return this.multiscripts(children, slot);
      case 'munder':
      case 'mover':
      case 'munderover': {
        const operator = naryBase(element);
        if (operator !== undefined) return [this.nary(element, operator, [], outer, depth)];
        return [this.underOver(element, tag, children, slot)];
      }
      case 'mtable':
        return [this.table(element, children, context, depth)];
      case 'mfenced': {
        const open = attribute(element, 'open') ?? '(';
        const close = attribute(element, 'close') ?? ')';
        const separators = (attribute(element, 'separators') ?? ',').replace(XML_SPACE, '');
        const items = children.map((_, i) => slot(i));
        const node: MathNode = { kind: 'delimited', open, close, items };
        if (items.length > 1 && separators !== '') node.separator = [...separators][0] as string;
        return [node];
      }
      case 'mphantom':
        return [{ kind: 'phantom', content: inferred() }];
      case 'menclose':
        return encloseOf(attribute(element, 'notation'), inferred());
      case 'semantics':
        // The presentation is the first child; annotations are for other processors.
        return children[0] ? this.element(children[0], context, depth + 1) : [];
      case 'annotation':
      case 'annotation-xml':
      case 'none':
      case 'mprescripts':
      case 'malignmark':
      case 'maligngroup':
        return [];
      case 'maction': {
        const selection = Number.parseInt(attribute(element, 'selection') ?? '1', 10);
        const chosen = children[Number.isFinite(selection) && selection >= 1 ? selection - 1 : 0] ?? children[0];
        return chosen ? this.element(chosen, context, depth + 1) : [];
      }
      default: {
        // mrow and the inferred-mrow containers (mstyle, mpadded, menclose, merror…): their
        // content, a group when it is more than one thing.
        const content = inferred();
        return content.length > 1 ? [{ kind: 'group', content }] : content;
      }
    }
  }

  private token(element: Element, tag: string, context: MathContext): MathList {
    let text = tokenText(element);
    if (tag === 'ms') text = `${attribute(element, 'lquote') ?? '"'}${text}${attribute(element, 'rquote') ?? '"'}`;
    if (text === '') return [];
    const node: MathNode = { kind: 'run', text };
    if (tag === 'mtext' || tag === 'ms') node.normal = true;
    const variant = context.variant ? VARIANTS[context.variant] : undefined;
    if (variant) {
      // Office Math styles letters only (§22.1.2.112): other characters are upright whatever it says.
      if (variant.style !== 'plain' || /\p{L}/u.test(text)) {
        if (variant.style) node.style = variant.style;
        if (variant.script) node.script = variant.script;
      }
    } else if ((tag === 'mi' && [...text].length > 1) || (tag === 'mo' && /\p{L}/u.test(text))) {
      // A single-letter identifier is italic, a longer one (sin, max) upright (MathML 3 §3.2.3.2);
      // an operator is upright whatever it spells (lim, mod).
      node.style = 'plain';
    }
    return [node];
  }

  /**
   * mmultiscripts (MathML 3 §3.4.7): the base, then pairs of subscript and superscript after it,
   * then mprescripts and the pairs before it. The first pair after the base is its scripts; each
   * further pair, and each prescript pair, scripts on an empty base beside it (m:sPre's shape).
   */
  private multiscripts(children: Element[], slot: (index: number) => MathList): MathList {
    const pre = children.findIndex((c) => tagName(c) === 'mprescripts');
    const postEnd = pre < 0 ? children.length : pre;
    const pair = (index: number): MathNode | undefined => {
      const present = (i: number) => i < children.length && tagName(children[i] as Element) !== 'none';
      const sub = present(index) ? slot(index) : [];
      const sup = present(index + 1) ? slot(index + 1) : [];
      if (sub.length === 0 && sup.length === 0) return undefined;
      const node: MathNode = { kind: 'scripts', base: [] };
      if (sub.length > 0) node.sub = sub;
      if (sup.length > 0) node.sup = sup;
      return node;
    };
    const out: MathList = [];
    if (pre >= 0) {
      for (let i = pre + 1; i < children.length; i += 2) {
        const node = pair(i);
        if (node) out.push(node);
      }
    }
    const base = slot(0);
    const first = pair(1);
    if (first?.kind === 'scripts' && 1 < postEnd) out.push({ ...first, base });
    else for (const node of base) out.push(node);
    for (let i = 3; i < postEnd; i += 2) {
      const node = pair(i);
      if (node) out.push(node);
    }
    return out;
  }

  private underOver(element: Element, tag: string, children: Element[], slot: (index: number) => MathList): MathNode {
    const base = slot(0);
    const overIndex = tag === 'munderover' ? 2 : 1;
    if (tag !== 'munder') {
      const over = children[overIndex];
      const accentAttribute = attribute(element, 'accent')?.trim().toLowerCase();
      const text = operatorOf(over);
      const isAccent =
        text !== undefined &&
        [...text].length === 1 &&
        (accentAttribute === 'true' || (accentAttribute === undefined && (ACCENTS.has(text) || /\p{Mn}/u.test(text))));
      if (isAccent && tag === 'mover') return { kind: 'accent', accent: text as string, base };
      const under: MathNode | undefined =
        tag === 'munderover' ? { kind: 'limit', position: 'under', base, limit: slot(1) } : undefined;
      return { kind: 'limit', position: 'over', base: under ? [under] : base, limit: slot(overIndex) };
    }
    return { kind: 'limit', position: 'under', base, limit: slot(1) };
  }

  private table(table: Element, rows: Element[], context: MathContext, depth: number): MathNode {
    const out: MathList[][] = [];
    for (const row of rows) {
      const tag = tagName(row);
      if (tag !== 'mtr' && tag !== 'mlabeledtr') continue;
      const rowContext = contextOf(row, context);
      // An mlabeledtr's first child is its equation label (MathML 3 §3.5.3): shown after the
      // row's cells, on the side labels take by default.
      const children = elementChildren(row);
      const cells = tag === 'mlabeledtr' ? [...children.slice(1), ...children.slice(0, 1)] : children;
      out.push(
        cells
          .slice(0, MAX_MATRIX_COLUMNS)
          .map((cell) => this.row(cell.children, contextOf(cell, rowContext), depth + 2)),
      );
      if (out.length >= MAX_MATRIX_ROWS) break;
    }
    const columns = out.reduce((most, r) => Math.max(most, r.length), 1);
    for (const row of out) while (row.length < columns) row.push([]);
    const node: MathNode = { kind: 'matrix', rows: out.length > 0 ? out : [[[]]] };
    // columnalign (MathML 3 §3.5.1.2): one value per column, the last repeated.
    const listed = (attribute(table, 'columnalign') ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (listed.length > 0) {
      const aligns: MathColumnAlign[] = [];
      for (let c = 0; c < columns; c++) {
        const value = listed[Math.min(c, listed.length - 1)];
        aligns.push(value === 'left' || value === 'right' ? value : 'center');
      }
      if (aligns.some((a) => a !== 'center')) node.columns = aligns;
    }
    return node;
  }
}

/**
 * menclose (MathML 3 §3.3.9) by its notation (longdiv by default): a radical, rules on sides of
 * the content, strikes through it; notations with no Office Math shape (circle, rounded box)
 * take the nearest, a box. Content with no notation known is a group.
 */
function encloseOf(notation: string | undefined, content: MathList): MathList {
  const names = new Set(
    (notation ?? 'longdiv')
      .trim()
      .toLowerCase()
      .split(/[\s,]+/),
  );
  const sides = new Set<MathSide>();
  const strikes: MathStrike[] = [];
  for (const name of names) {
    for (const side of ENCLOSE_SIDES[name] ?? []) sides.add(side);
    const strike = ENCLOSE_STRIKES[name];
    if (strike && !strikes.includes(strike)) strikes.push(strike);
  }
  let nodes: MathList = content;
  if (sides.size > 0 || strikes.length > 0) {
    const node: MathNode = {
      kind: 'enclosed',
      content,
      sides: (['top', 'bottom', 'left', 'right'] as const).filter((side) => sides.has(side)),
    };
    if (strikes.length > 0) node.strikes = strikes;
    nodes = [node];
  } else if (content.length > 1 && !names.has('radical')) nodes = [{ kind: 'group', content }];
  return names.has('radical') ? [{ kind: 'radical', base: nodes }] : nodes;
}

const ALL_SIDES: MathSide[] = ['top', 'bottom', 'left', 'right'];
const ENCLOSE_SIDES: Record<string, MathSide[]> = {
  box: ALL_SIDES,
  roundedbox: ALL_SIDES,
  circle: ALL_SIDES,
  top: ['top'],
  bottom: ['bottom'],
  left: ['left'],
  right: ['right'],
  actuarial: ['top', 'right'],
  madruwb: ['bottom', 'right'],
  longdiv: ['left', 'top'],
  phasorangle: ['bottom'],
};
const ENCLOSE_STRIKES: Record<string, MathStrike> = {
  horizontalstrike: 'horizontal',
  verticalstrike: 'vertical',
  updiagonalstrike: 'up',
  updiagonalarrow: 'up',
  downdiagonalstrike: 'down',
};

/** An mspace's width (MathML 3 §3.2.7) as the nearest Unicode spaces; none for none or negative widths. */
function spaceOf(width: string | undefined): MathList {
  const value = width?.trim().toLowerCase() ?? '';
  let em = NAMED_SPACES[value];
  if (em === undefined) {
    const match = /^(-?[\d.]+)\s*(em|ex|px|pt|pc|in|cm|mm|mu)?$/.exec(value);
    if (!match) return [];
    const n = Number.parseFloat(match[1] as string);
    const perEm: Record<string, number> = {
      em: 1,
      ex: 0.5,
      px: 1 / 16,
      pt: 1 / 12,
      pc: 1,
      in: 6,
      cm: 6 / 2.54,
      mm: 0.6 / 2.54,
      mu: 1 / 18,
    };
    em = n * (perEm[match[2] ?? 'em'] ?? 1);
  }
  if (!Number.isFinite(em) || em <= 0) return [];
  let text = '';
  let rest = Math.min(em, 20);
  while (rest >= 1) {
    text += '\u2003';
    rest -= 1;
  }
  if (rest > 1 / 24) {
    let best = SPACES[0] as [number, string];
    for (const space of SPACES) if (Math.abs(space[0] - rest) < Math.abs(best[0] - rest)) best = space;
    text += best[1];
  }
  return [{ kind: 'run', text }];
}
