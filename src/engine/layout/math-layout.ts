/**
 * Mathematics set in two dimensions: the model's math tree (src/engine/model/math.ts, shaped after Office
 * Math, ECMA-376 Part 1 §22.1) as boxes of positioned glyphs, rules and paths, the way Word and TeX
 * set it: fractions stacked over a rule on the math axis, scripts raised and lowered at a smaller
 * size, radicals under a drawn sign, large operators with their limits, fences grown to what they
 * enclose, matrices in a grid. The spacing between atoms is TeX's (The TeXbook, Appendix G, rules
 * of the mlist-to-hlist conversion), which Office Math follows; glyph extents are estimated from
 * the character (FontFace gives advances, not outlines), so heights are close, not exact.
 *
 * Items are relative to the box's left end on its baseline (y grows downwards, as on the page).
 * Every node draws its content: text as text, structure as rules and paths.
 */
import { type FontFace, type FontRequest, type FontSet, isDefaultIgnorable } from '../fonts';
import {
  type MathColumnAlign,
  type MathInline,
  type MathList,
  type MathNode,
  type MathScript,
  type MathSide,
  type MathStrike,
  type MathStyle,
  mathLists,
  type RunProperties,
} from '../model';
import type { PageItem, PathCommand } from './page-items';

/** Word sets equations in the document's math font (m:mathFont, §22.1.2.61), Cambria Math by default. */
export const MATH_FONT = 'Cambria Math';

/** A laid-out equation, or a piece of one between two places a line may break. */
export interface MathBox {
  width: number;
  ascent: number;
  descent: number;
  /** Relative to the box's left end on its baseline, y downwards. */
  items: PageItem[];
  /** The faces its text items use, for the painter to embed. */
  faces: FontFace[];
}

/** TeX's atom classes (The TeXbook, ch. 17): they decide the space between neighbours. */
type AtomClass = 'ord' | 'op' | 'bin' | 'rel' | 'open' | 'close' | 'punct' | 'inner';

/** A box being set: its size, items and class; `char` for a one-character base (TeX's rule 18a). */
interface Piece {
  width: number;
  ascent: number;
  descent: number;
  items: PageItem[];
  cls: AtomClass;
  char?: boolean;
  /** Ends in an italic letter: a superscript after it keeps clear of the slant. */
  slanted?: boolean;
  /**
   * The class its right side has for the space after it, when not `cls`: a large operator with
   * its operand is an operator on its left and its operand's class on its right.
   */
  rightCls?: AtomClass;
}

/** The math style: display (D) or text (T) at level 0, then script (S) and scriptscript (SS). */
interface Style {
  level: 0 | 1 | 2;
  display: boolean;
}

/** Size per level: Cambria Math's ScriptPercentScaleDown and ScriptScriptPercentScaleDown. */
const LEVEL_SCALE = [1, 0.73, 0.6];
/** The math axis (the minus sign's height), x-height and a capital's height, in em. */
const AXIS = 0.26;
const X_HEIGHT = 0.47;
/** One mu, an eighteenth of an em (TeX's math unit). */
const MU = 1 / 18;

/**
 * Space between neighbouring atoms in mu (TeX's table, The TeXbook p. 170): negative values are
 * left out in script styles. Rows are the left atom's class, columns the right one's.
 */
const SPACING: Record<AtomClass, Record<AtomClass, number>> = {
  ord: { ord: 0, op: 3, bin: -4, rel: -5, open: 0, close: 0, punct: 0, inner: -3 },
  op: { ord: 3, op: 3, bin: 0, rel: -5, open: 0, close: 0, punct: 0, inner: -3 },
  bin: { ord: -4, op: -4, bin: 0, rel: 0, open: -4, close: 0, punct: 0, inner: -4 },
  rel: { ord: -5, op: -5, bin: 0, rel: 0, open: -5, close: 0, punct: 0, inner: -5 },
  open: { ord: 0, op: 0, bin: 0, rel: 0, open: 0, close: 0, punct: 0, inner: 0 },
  close: { ord: 0, op: 3, bin: -4, rel: -5, open: 0, close: 0, punct: 0, inner: -3 },
  punct: { ord: -3, op: -3, bin: 0, rel: -3, open: -3, close: -3, punct: -3, inner: -3 },
  inner: { ord: -3, op: 3, bin: -4, rel: -5, open: -3, close: 0, punct: -3, inner: -3 },
};

const RELATIONS = new Set(
  '=<>≤≥≠≈≡≅∼≃∝≪≫≺≻⊂⊃⊆⊇∈∉∋∌→←↔⇒⇐⇔↦⟶⟵⟷⟹⟸⟺∣∥⊥≔≕≐⊢⊨∵∴≲≳≦≧⩽⩾≺≼≽⊏⊐⊑⊒↑↓↕⇑⇓↗↘↙↖↪↩⇀↼⇌≍≜≝≟∽≊≏≎∷:'.split(''),
);
const BINARIES = new Set('+−±∓×÷·⋅∗∘∙∪∩⊕⊗⊖⊘⊙∧∨∖⋆†‡⊎⊓⊔⋄◦⊞⊠⊡⨯∔'.split(''));
const OPENINGS = new Set('([{⟨⌈⌊⟦〈⟪'.split(''));
const CLOSINGS = new Set(')]}⟩⌉⌋⟧〉⟫!'.split(''));
const PUNCTUATION = new Set(',;'.split(''));
/** Large operators, set bigger when an n-ary node holds them (∑ ∏ ∫ …). */
const INTEGRALS = /[\u222B-\u2233\u2A0B-\u2A1C]/;

/** Characters that stretch along what they sit over or under (accents, group characters). */
type Stretchy =
  | 'hat'
  | 'check'
  | 'tilde'
  | 'bar'
  | 'doubleBar'
  | 'right'
  | 'left'
  | 'both'
  | 'overBrace'
  | 'underBrace'
  | 'breve'
  | 'dot'
  | 'ddot'
  | 'tdot'
  | 'acute'
  | 'grave'
  | 'overParen'
  | 'underParen'
  | 'overBracket'
  | 'underBracket';
const STRETCHY: Record<string, Stretchy> = {
  '\u0302': 'hat',
  '\u02C6': 'hat',
  '^': 'hat',
  '\u030C': 'check',
  '\u02C7': 'check',
  '\u0303': 'tilde',
  '\u02DC': 'tilde',
  '~': 'tilde',
  '\u0304': 'bar',
  '\u0305': 'bar',
  '\u00AF': 'bar',
  '\u203E': 'bar',
  '\u02C9': 'bar',
  _: 'bar',
  '\u0332': 'bar',
  '\u033F': 'doubleBar',
  '\u20D7': 'right',
  '\u2192': 'right',
  '\u20D1': 'right',
  '\u21C0': 'right',
  '\u20D6': 'left',
  '\u2190': 'left',
  '\u20D0': 'left',
  '\u21BC': 'left',
  '\u20E1': 'both',
  '\u2194': 'both',
  '\u23DE': 'overBrace',
  '\uFE37': 'overBrace',
  '\u23DF': 'underBrace',
  '\uFE38': 'underBrace',
  '\u23DC': 'overParen',
  '\u23DD': 'underParen',
  '\u23B4': 'overBracket',
  '\u23B5': 'underBracket',
  '\u0306': 'breve',
  '\u02D8': 'breve',
  '\u0307': 'dot',
  '\u02D9': 'dot',
  '\u0308': 'ddot',
  '\u00A8': 'ddot',
  '\u20DB': 'tdot',
  '\u0301': 'acute',
  '\u00B4': 'acute',
  '\u0300': 'grave',
  '`': 'grave',
};

/**
 * Mathematical alphanumerics (Unicode's block U+1D400) for Office Math's scripts (m:scr,
 * §22.1.2.94): the first capital and small letter of each alphabet, by script and weight, and the
 * letters that live in Letterlike Symbols instead.
 */
const ALPHABETS: Record<string, [number, number, number?]> = {
  'script|': [0x1d49c, 0x1d4b6],
  'script|b': [0x1d4d0, 0x1d4ea],
  'fraktur|': [0x1d504, 0x1d51e],
  'fraktur|b': [0x1d56c, 0x1d586],
  'double-struck|': [0x1d538, 0x1d552, 0x1d7d8],
  'sans-serif|': [0x1d5a0, 0x1d5ba, 0x1d7e2],
  'sans-serif|b': [0x1d5d4, 0x1d5ee, 0x1d7ec],
  'sans-serif|i': [0x1d608, 0x1d622],
  'sans-serif|bi': [0x1d63c, 0x1d656],
  'monospace|': [0x1d670, 0x1d68a, 0x1d7f6],
};
const LETTERLIKE: Record<string, string> = {
  'script|B': 'ℬ',
  'script|E': 'ℰ',
  'script|F': 'ℱ',
  'script|H': 'ℋ',
  'script|I': 'ℐ',
  'script|L': 'ℒ',
  'script|M': 'ℳ',
  'script|R': 'ℛ',
  'script|e': 'ℯ',
  'script|g': 'ℊ',
  'script|o': 'ℴ',
  'fraktur|C': 'ℭ',
  'fraktur|H': 'ℌ',
  'fraktur|I': 'ℑ',
  'fraktur|R': 'ℜ',
  'fraktur|Z': 'ℨ',
  'double-struck|C': 'ℂ',
  'double-struck|H': 'ℍ',
  'double-struck|N': 'ℕ',
  'double-struck|P': 'ℙ',
  'double-struck|Q': 'ℚ',
  'double-struck|R': 'ℝ',
  'double-struck|Z': 'ℤ',
};

/** A character in a script's alphabet, or undefined when the script has none for it. */
function alphanumeric(ch: string, script: MathScript, bold: boolean, italic: boolean): string | undefined {
  const weight = `${bold ? 'b' : ''}${italic && script === 'sans-serif' ? 'i' : ''}`;
  const alphabet = ALPHABETS[`${script}|${weight}`] ?? ALPHABETS[`${script}|`];
  if (!alphabet || ch.length !== 1) return undefined;
  // The plain script, fraktur and double-struck letters Unicode had before the block.
  const letterlike = weight === '' ? LETTERLIKE[`${script}|${ch}`] : undefined;
  if (letterlike) return letterlike;
  const code = ch.charCodeAt(0);
  if (code >= 0x41 && code <= 0x5a) return String.fromCodePoint(alphabet[0] + code - 0x41);
  if (code >= 0x61 && code <= 0x7a) return String.fromCodePoint(alphabet[1] + code - 0x61);
  if (code >= 0x30 && code <= 0x39 && alphabet[2] !== undefined) return String.fromCodePoint(alphabet[2] + code - 0x30);
  return undefined;
}

/** How far a character reaches above and below the baseline, in em: an estimate by its shape. */
function inkExtent(ch: string): [number, number] {
  if (/[acemnorsuvwxz]/.test(ch)) return [X_HEIGHT, 0];
  if (/[gpqy]/.test(ch)) return [X_HEIGHT, 0.22];
  if (ch === 'j') return [0.68, 0.22];
  if (/[bdfhiklt]/.test(ch)) return [0.7, 0];
  if (ch === 'Q') return [0.68, 0.16];
  if (/[A-Z0-9]/.test(ch)) return [0.68, 0];
  if (/[αεικνοπστυωϵ]/.test(ch)) return [X_HEIGHT, 0];
  if (/[γημρχςϱ]/.test(ch)) return [X_HEIGHT, 0.22];
  if (/[βζξφψϕ]/.test(ch)) return [0.7, 0.22];
  if (/[δθλϑ∂]/.test(ch)) return [0.7, 0];
  if (/[()[\]{}|‖⟨⟩⌈⌉⌊⌋]/.test(ch)) return [0.72, 0.16];
  if (PUNCTUATION.has(ch)) return [0.1, 0.16];
  if (ch === '.' || ch === '\u2026' || ch === '\u22EF' || ch === '\u00B7' || ch === '\u22C5') return [0.32, 0];
  if (ch === "'" || ch === '\u2032' || ch === '\u2033' || ch === '\u2034') return [0.72, 0];
  if (RELATIONS.has(ch) || BINARIES.has(ch)) return [0.56, 0.04];
  if (INTEGRALS.test(ch)) return [0.84, 0.17];
  if (/\s/.test(ch)) return [0, 0];
  return [0.68, 0];
}

/** Where a large operator's glyph reaches, in em of its size: ∑ sits on the baseline, ∫ descends. */
function operatorExtent(operator: string): [number, number] {
  return INTEGRALS.test(operator) ? [-0.17, 0.84] : [0, 0.68];
}

function emptyPiece(cls: AtomClass = 'ord'): Piece {
  return { width: 0, ascent: 0, descent: 0, items: [], cls };
}

/** Moves items in place (they belong to the piece being built). */
function shift(items: PageItem[], dx: number, dy: number): void {
  if (dx === 0 && dy === 0) return;
  for (const item of items) {
    switch (item.kind) {
      case 'line':
        item.x1 += dx;
        item.x2 += dx;
        item.y1 += dy;
        item.y2 += dy;
        break;
      case 'path':
        for (const c of item.commands) {
          if (c.op === 'Z') continue;
          c.x += dx;
          c.y += dy;
          if (c.op === 'C') {
            c.x1 += dx;
            c.y1 += dy;
            c.x2 += dx;
            c.y2 += dy;
          }
        }
        break;
      case 'anchor':
        item.y += dy;
        break;
      default:
        item.x += dx;
        item.y += dy;
    }
  }
}

/** Puts `piece` into `out` with its left end at `x` and its baseline `rise` above out's. */
function place(out: PageItem[], piece: Piece, x: number, rise: number): void {
  shift(piece.items, x, -rise);
  for (const item of piece.items) out.push(item);
}

/** A character's class in a run of math text. */
function classOf(ch: string): AtomClass | undefined {
  if (RELATIONS.has(ch)) return 'rel';
  if (BINARIES.has(ch)) return 'bin';
  if (OPENINGS.has(ch)) return 'open';
  if (CLOSINGS.has(ch)) return 'close';
  if (PUNCTUATION.has(ch)) return 'punct';
  return undefined;
}

/**
 * TeX's rules 5 and 6: a binary operator with nothing to its left it can combine, or a relation,
 * closing fence or punctuation to its right, is an ordinary symbol (a unary minus).
 */
function settleBinaries(atoms: Piece[]): void {
  for (let i = 0; i < atoms.length; i++) {
    const atom = atoms[i] as Piece;
    if (atom.cls !== 'bin') continue;
    const before = atoms[i - 1]?.cls;
    const after = atoms[i + 1]?.cls;
    if (
      before === undefined ||
      before === 'bin' ||
      before === 'op' ||
      before === 'rel' ||
      before === 'open' ||
      before === 'punct' ||
      after === 'rel' ||
      after === 'close' ||
      after === 'punct'
    )
      atom.cls = 'ord';
  }
}

/** The space before each atom, points. */
function spacesBetween(atoms: readonly Piece[], style: Style, size: number): number[] {
  const out: number[] = [0];
  for (let i = 1; i < atoms.length; i++) {
    const before = atoms[i - 1] as Piece;
    const mu = SPACING[before.rightCls ?? before.cls][(atoms[i] as Piece).cls];
    out.push(mu > 0 || (mu < 0 && style.level === 0) ? Math.abs(mu) * MU * size : 0);
  }
  return out;
}

/** Atoms side by side with their spaces (or none): one piece, its class `cls`. */
function hbox(atoms: readonly Piece[], spaces: readonly number[] | undefined, cls: AtomClass = 'ord'): Piece {
  const out = emptyPiece(cls);
  let x = 0;
  for (let i = 0; i < atoms.length; i++) {
    const atom = atoms[i] as Piece;
    x += spaces?.[i] ?? 0;
    place(out.items, atom, x, 0);
    x += atom.width;
    out.ascent = Math.max(out.ascent, atom.ascent);
    out.descent = Math.max(out.descent, atom.descent);
  }
  out.width = x;
  if (atoms.length === 1) {
    const only = atoms[0] as Piece;
    if (only.char) out.char = true;
    if (only.slanted) out.slanted = true;
  } else if (atoms.length > 1 && (atoms[atoms.length - 1] as Piece).slanted) out.slanted = true;
  return out;
}

/** A path's points as commands: a polyline, closed or not. */
function polyline(points: readonly [number, number][], close = false): PathCommand[] {
  const commands: PathCommand[] = points.map(([x, y], i) => ({ op: i === 0 ? 'M' : 'L', x, y }));
  if (close) commands.push({ op: 'Z' });
  return commands;
}

class MathSetter {
  readonly faces = new Set<FontFace>();
  private readonly fonts: FontSet;
  private readonly props: RunProperties;
  private readonly color: string;
  /** The face for each request, asked for once. */
  private readonly faceCache = new Map<string, FontFace>();

  constructor(fonts: FontSet, props: RunProperties) {
    this.fonts = fonts;
    this.props = props;
    this.color = props.color ?? '000000';
  }

  size(style: Style): number {
    return Math.max(1, this.props.size * (LEVEL_SCALE[style.level] as number));
  }

  /** Rule thickness (fraction bars, radicals, borders) at a style. */
  rule(style: Style): number {
    return Math.max(0.3, 0.05 * this.size(style));
  }

  private face(request: FontRequest): FontFace {
    const key = `${request.family}|${request.bold}|${request.italic}`;
    let face = this.faceCache.get(key);
    if (!face) {
      face = this.fonts.face(request);
      this.faceCache.set(key, face);
    }
    return face;
  }

  /**
   * Text set at `size` with a request per character: each character in the requested face or,
   * when it lacks it, in the fallback face that has it. One text item per run of one face.
   */
  text(chars: readonly { ch: string; request: FontRequest }[], size: number): Piece {
    const out = emptyPiece();
    let current: { face: FontFace; text: string; x: number } | undefined;
    let x = 0;
    const flush = () => {
      if (!current) return;
      const width = current.face.measure(current.text) * size;
      if (/\S/.test(current.text)) {
        this.faces.add(current.face);
        out.items.push({
          kind: 'text',
          x: current.x,
          y: 0,
          font: current.face.key,
          size,
          color: this.color,
          text: current.text,
        });
      }
      x = current.x + width;
      current = undefined;
    };
    for (const { ch, request } of chars) {
      const primary = this.face(request);
      const cp = ch.codePointAt(0) ?? 32;
      const face = cp < 32 || primary.hasGlyph(cp) ? primary : (this.fonts.fallback(cp, request) ?? primary);
      if (current && current.face !== face) flush();
      if (current) current.text += ch;
      else current = { face, text: ch, x };
      const [up, down] = inkExtent(ch);
      out.ascent = Math.max(out.ascent, up * size);
      out.descent = Math.max(out.descent, down * size);
    }
    flush();
    out.width = x;
    return out;
  }

  /** The request a character of a math run is set with, and the character drawn. */
  private mathChar(ch: string, node: Extract<MathNode, { kind: 'run' }>): { ch: string; request: FontRequest } {
    const style: MathStyle | undefined = node.style;
    const bold = style === 'bold' || style === 'boldItalic';
    if (node.normal) {
      return {
        ch,
        request: {
          family: this.props.font,
          bold: bold || this.props.bold,
          italic: style === 'italic' || style === 'boldItalic' || this.props.italic,
        },
      };
    }
    const letter = /\p{L}/u.test(ch);
    // Office Math's default style: letters italic, everything else upright (§22.1.2.112).
    const italic = style === 'italic' || style === 'boldItalic' || (style === undefined && letter);
    if (node.script && node.script !== 'roman') {
      const mapped = alphanumeric(ch, node.script, bold, italic);
      if (mapped) return { ch: mapped, request: { family: MATH_FONT, bold: false, italic: false } };
    }
    // A hyphen typed in an equation is a minus sign, as Word shows it.
    return { ch: ch === '-' ? '\u2212' : ch, request: { family: MATH_FONT, bold, italic } };
  }

  /** A run as atoms: operators one by one, with their classes; letters and digits together. */
  private runAtoms(node: Extract<MathNode, { kind: 'run' }>, style: Style): Piece[] {
    const size = this.size(style);
    // Invisible operators (U+2061–U+2064: function application, invisible times…) draw nothing.
    const chars = [...node.text].filter((ch) => !isDefaultIgnorable(ch.codePointAt(0) ?? 0));
    if (chars.length === 0) return [];
    if (node.normal)
      return [
        this.text(
          chars.map((ch) => this.mathChar(ch, node)),
          size,
        ),
      ];
    const atoms: Piece[] = [];
    let buffer: { ch: string; request: FontRequest }[] = [];
    const flush = () => {
      if (buffer.length === 0) return;
      const piece = this.text(buffer, size);
      if (buffer.length === 1) piece.char = true;
      if (buffer[buffer.length - 1]?.request.italic) piece.slanted = true;
      // An upright name of several letters (sin, log, lim) is an operator (TeX's \sin).
      if (buffer.length > 1 && node.style === 'plain' && buffer.every(({ ch }) => /\p{L}/u.test(ch))) piece.cls = 'op';
      atoms.push(piece);
      buffer = [];
    };
    for (const ch of chars) {
      const cls = node.normal ? undefined : classOf(ch === '-' ? '\u2212' : ch);
      if (cls === undefined) {
        buffer.push(this.mathChar(ch, node));
        continue;
      }
      flush();
      const piece = this.text([this.mathChar(ch, node)], size);
      piece.cls = cls;
      piece.char = true;
      atoms.push(piece);
    }
    flush();
    return atoms;
  }

  /** A sequence as its atoms, classes settled (before spacing). */
  atoms(nodes: MathList, style: Style): Piece[] {
    const atoms: Piece[] = [];
    for (const node of nodes) {
      if (node.kind === 'run') for (const atom of this.runAtoms(node, style)) atoms.push(atom);
      else atoms.push(this.node(node, style));
    }
    settleBinaries(atoms);
    return atoms;
  }

  /** A sequence set as one piece. */
  list(nodes: MathList | undefined, style: Style): Piece {
    const atoms = this.atoms(nodes ?? [], style);
    // One atom keeps its class (a lone relation under a script is still a relation).
    const cls = atoms.length === 1 ? (atoms[0] as Piece).cls : 'ord';
    return hbox(atoms, spacesBetween(atoms, style, this.size(style)), cls);
  }

  node(node: Exclude<MathNode, { kind: 'run' }>, style: Style): Piece {
    switch (node.kind) {
      case 'fraction':
        return this.fraction(node.numerator, node.denominator, node.noBar === true, style);
      case 'radical':
        return this.radical(node.base, node.degree, style);
      case 'scripts': {
        const base = this.list(node.base, style);
        return this.scripts(base, node.sub, node.sup, style);
      }
      case 'nary':
        return this.nary(node, style);
      case 'limit':
        return this.limit(node.base, node.limit, node.position, style);
      case 'accent':
        return this.accent(node.accent, this.list(node.base, style), style);
      case 'delimited':
        return this.delimited(node, style);
      case 'matrix':
        return this.matrix(node.rows, node.columns, style);
      case 'group':
        return this.list(node.content, style);
      case 'bar':
        return this.bar(this.list(node.base, style), node.position, style);
      case 'enclosed':
        return this.enclosed(this.list(node.content, style), node.sides, node.strikes ?? [], style);
      case 'phantom': {
        const content = this.list(node.content, style);
        return { ...emptyPiece(), width: content.width, ascent: content.ascent, descent: content.descent };
      }
    }
  }

  /** TeX's rule 15: numerator and denominator clear of a rule on the axis. */
  private fraction(numerator: MathList, denominator: MathList, noBar: boolean, style: Style): Piece {
    const size = this.size(style);
    const inner: Style = style.display
      ? { level: style.level, display: false }
      : { level: nextLevel(style), display: false };
    const num = this.list(numerator, inner);
    const den = this.list(denominator, inner);
    const theta = this.rule(style);
    const axis = AXIS * size;
    let up = (style.display ? 0.68 : 0.4) * size;
    let down = (style.display ? 0.69 : 0.35) * size;
    if (noBar) {
      const clearance = (style.display ? 7 : 3) * theta;
      const gap = up - num.descent - (den.ascent - down);
      if (gap < clearance) {
        up += (clearance - gap) / 2;
        down += (clearance - gap) / 2;
      }
    } else {
      const clearance = (style.display ? 3 : 1) * theta;
      const above = up - num.descent - (axis + theta / 2);
      if (above < clearance) up += clearance - above;
      const below = axis - theta / 2 - (den.ascent - down);
      if (below < clearance) down += clearance - below;
    }
    const pad = 0.12 * size;
    const width = Math.max(num.width, den.width) + 2 * pad;
    const out = emptyPiece('inner');
    out.width = width;
    out.ascent = up + num.ascent;
    out.descent = down + den.descent;
    place(out.items, num, (width - num.width) / 2, up);
    place(out.items, den, (width - den.width) / 2, -down);
    if (!noBar)
      out.items.push({
        kind: 'line',
        x1: pad / 2,
        y1: -axis,
        x2: width - pad / 2,
        y2: -axis,
        width: theta,
        color: this.color,
      });
    return out;
  }

  /** A radical sign drawn to the height of its content, the degree in its crook (TeX's rule 11). */
  private radical(base: MathList, degree: MathList | undefined, style: Style): Piece {
    const size = this.size(style);
    const content = this.list(base, { level: style.level, display: style.display });
    const theta = this.rule(style);
    const clearance = theta + (style.display ? 0.12 : 0.06) * size;
    const top = Math.max(content.ascent, X_HEIGHT * size) + clearance + theta / 2;
    const bottom = -Math.max(content.descent, 0.05 * size) - 0.06 * size;
    const height = top - bottom;
    const signWidth = Math.min(0.9, 0.5 + 0.05 * (height / size)) * size;
    const hook = bottom + 0.45 * Math.min(height, 1.2 * size);
    let x0 = 0;
    let degreePiece: Piece | undefined;
    if (degree !== undefined && degree.length > 0) {
      degreePiece = this.list(degree, { level: 2, display: false });
      // The degree ends over the sign's down-stroke; a wide one pushes the sign right.
      const end = 0.35 * signWidth;
      x0 = Math.max(0, degreePiece.width - end);
    }
    const out = emptyPiece();
    const points: [number, number][] = [
      [x0, -hook],
      [x0 + 0.18 * signWidth, -(hook + 0.06 * size)],
      [x0 + 0.45 * signWidth, -bottom],
      [x0 + signWidth, -top],
      [x0 + signWidth + content.width + 0.1 * size, -top],
    ];
    out.items.push({ kind: 'path', commands: polyline(points), stroke: this.color, strokeWidth: theta });
    // The down-stroke heavier, as a radical sign's is.
    out.items.push({
      kind: 'line',
      x1: (points[1] as [number, number])[0],
      y1: (points[1] as [number, number])[1],
      x2: (points[2] as [number, number])[0],
      y2: (points[2] as [number, number])[1],
      width: theta * 2,
      color: this.color,
    });
    place(out.items, content, x0 + signWidth + 0.05 * size, 0);
    out.width = x0 + signWidth + content.width + 0.15 * size;
    out.ascent = top + theta;
    out.descent = -bottom + theta;
    if (degreePiece) {
      const rise = bottom + 0.6 * height;
      place(out.items, degreePiece, x0 + 0.35 * signWidth - degreePiece.width, rise + degreePiece.descent);
      out.ascent = Math.max(out.ascent, rise + degreePiece.descent + degreePiece.ascent);
    }
    return out;
  }

  /** Sub- and superscripts after a base (TeX's rule 18). */
  scripts(base: Piece, sub: MathList | undefined, sup: MathList | undefined, style: Style): Piece {
    const size = this.size(style);
    const scriptStyle: Style = { level: nextLevel(style), display: false };
    const scriptSize = this.size(scriptStyle);
    const theta = this.rule(style);
    const subPiece = sub !== undefined ? this.list(sub, scriptStyle) : undefined;
    const supPiece = sup !== undefined ? this.list(sup, scriptStyle) : undefined;
    let up = base.char ? 0 : base.ascent - 0.39 * scriptSize;
    let down = base.char ? 0 : base.descent + 0.05 * scriptSize;
    const out = emptyPiece(base.cls);
    place(out.items, base, 0, 0);
    out.ascent = base.ascent;
    out.descent = base.descent;
    let width = base.width;
    const after = base.width;
    if (supPiece) {
      up = Math.max(up, (style.display ? 0.41 : 0.36) * size, supPiece.descent + (X_HEIGHT * size) / 4);
    }
    if (subPiece && !supPiece) down = Math.max(down, 0.15 * size, subPiece.ascent - (4 / 5) * X_HEIGHT * size);
    if (subPiece && supPiece) {
      down = Math.max(down, 0.25 * size);
      const gap = up - supPiece.descent - (subPiece.ascent - down);
      if (gap < 4 * theta) {
        down += 4 * theta - gap;
        const lift = (4 / 5) * X_HEIGHT * size - (up - supPiece.descent);
        if (lift > 0) {
          up += lift;
          down -= lift;
        }
      }
    }
    const space = 0.05 * size;
    if (supPiece) {
      const x = after + (base.slanted ? 0.06 * size : 0);
      place(out.items, supPiece, x, up);
      width = Math.max(width, x + supPiece.width + space);
      out.ascent = Math.max(out.ascent, up + supPiece.ascent);
      out.descent = Math.max(out.descent, supPiece.descent - up);
    }
    if (subPiece) {
      place(out.items, subPiece, after, -down);
      width = Math.max(width, after + subPiece.width + space);
      out.descent = Math.max(out.descent, down + subPiece.descent);
      out.ascent = Math.max(out.ascent, subPiece.ascent - down);
    }
    out.width = width;
    return out;
  }

  /** A large operator, its limits under and over it or as scripts, then its operand. */
  private nary(node: Extract<MathNode, { kind: 'nary' }>, style: Style): Piece {
    const size = this.size(style);
    const integral = INTEGRALS.test(node.operator);
    const scale = style.level > 0 ? 1 : style.display ? (integral ? 1.6 : 1.9) : integral ? 1.15 : 1.35;
    const opSize = size * scale;
    const glyph = this.text(
      [{ ch: node.operator, request: { family: MATH_FONT, bold: false, italic: false } }],
      opSize,
    );
    const [low, high] = operatorExtent(node.operator);
    // Centred on the math axis.
    const rise = AXIS * size - ((low + high) / 2) * opSize;
    const operator = emptyPiece('op');
    place(operator.items, glyph, 0, rise);
    operator.width = glyph.width;
    operator.ascent = rise + high * opSize;
    operator.descent = -(rise + low * opSize);
    let withLimits: Piece;
    const hasLimits = (node.sub?.length ?? 0) > 0 || (node.sup?.length ?? 0) > 0;
    if (!hasLimits) withLimits = operator;
    else if (node.limits === 'underOver' && style.display) {
      withLimits = this.underOver(operator, node.sub, node.sup, style);
      withLimits.cls = 'op';
    } else {
      withLimits = this.scripts(
        operator,
        node.sub && node.sub.length > 0 ? node.sub : undefined,
        node.sup && node.sup.length > 0 ? node.sup : undefined,
        style,
      );
      withLimits.cls = 'op';
    }
    if (node.base.length === 0) return withLimits;
    const base = this.list(node.base, style);
    const out = hbox([withLimits, base], [0, 3 * MU * size], 'op');
    out.rightCls = base.rightCls ?? base.cls;
    return out;
  }

  /** Limits centred under and over a base (TeX's rule 13a), at the script size. */
  private underOver(base: Piece, under: MathList | undefined, over: MathList | undefined, style: Style): Piece {
    const size = this.size(style);
    const limitStyle: Style = { level: nextLevel(style), display: false };
    const gap = 0.12 * size;
    const underPiece = under && under.length > 0 ? this.list(under, limitStyle) : undefined;
    const overPiece = over && over.length > 0 ? this.list(over, limitStyle) : undefined;
    const width = Math.max(base.width, underPiece?.width ?? 0, overPiece?.width ?? 0);
    const out = emptyPiece(base.cls);
    out.width = width;
    out.ascent = base.ascent;
    out.descent = base.descent;
    const baseWidth = base.width;
    place(out.items, base, (width - baseWidth) / 2, 0);
    if (overPiece) {
      const rise = out.ascent + gap + overPiece.descent;
      place(out.items, overPiece, (width - overPiece.width) / 2, rise);
      out.ascent = rise + overPiece.ascent;
    }
    if (underPiece) {
      const drop = out.descent + gap + underPiece.ascent;
      place(out.items, underPiece, (width - underPiece.width) / 2, -drop);
      out.descent = drop + underPiece.descent;
    }
    return out;
  }

  /** m:limLow, m:limUpp, m:groupChr: a limit under or over its base; a brace or arrow grows to the base's width. */
  private limit(baseNodes: MathList, limitNodes: MathList, position: 'under' | 'over', style: Style): Piece {
    const base = this.list(baseNodes, style);
    const only = limitNodes.length === 1 ? limitNodes[0] : undefined;
    const stretchy = only?.kind === 'run' && [...only.text].length === 1 ? STRETCHY[only.text] : undefined;
    if (stretchy && stretchy !== 'dot' && stretchy !== 'ddot' && stretchy !== 'tdot')
      return this.stretched(base, stretchy, position, style);
    const out = this.underOver(
      base,
      position === 'under' ? limitNodes : undefined,
      position === 'over' ? limitNodes : undefined,
      style,
    );
    // lim, max, min under their limits are still operators.
    if (base.cls === 'op') out.cls = 'op';
    return out;
  }

  /** An accent over its base: drawn to the base's width when it is a rule, hat, tilde or arrow. */
  private accent(accent: string, base: Piece, style: Style): Piece {
    const stretchy = STRETCHY[accent];
    if (stretchy) return this.stretched(base, stretchy, 'over', style);
    const size = this.size(style);
    const glyph = this.text([{ ch: accent, request: { family: MATH_FONT, bold: false, italic: false } }], size);
    const out = emptyPiece(base.cls);
    place(out.items, base, 0, 0);
    const rise = Math.max(0, base.ascent - X_HEIGHT * size);
    place(out.items, glyph, (base.width - glyph.width) / 2 + (base.slanted ? 0.08 * size : 0), rise);
    out.width = Math.max(base.width, glyph.width);
    out.ascent = Math.max(base.ascent, rise + 0.75 * size);
    out.descent = base.descent;
    return out;
  }

  /** A mark drawn along the base, over or under it: accents, bars, braces and arrows. */
  private stretched(base: Piece, mark: Stretchy, position: 'under' | 'over', style: Style): Piece {
    const size = this.size(style);
    const theta = this.rule(style);
    const out = emptyPiece(base.cls);
    // Small accents stay small over a single letter, centred (and moved right over an italic one).
    const wide =
      mark === 'overBrace' ||
      mark === 'underBrace' ||
      mark === 'overParen' ||
      mark === 'underParen' ||
      mark === 'overBracket' ||
      mark === 'underBracket' ||
      mark === 'bar' ||
      mark === 'doubleBar';
    const markWidth = wide ? base.width : Math.max(Math.min(base.width, 2 * size), 0.45 * size);
    const slant = base.slanted && base.char ? 0.08 * size : 0;
    const x0 = Math.max(0, (base.width - markWidth) / 2) + slant;
    const braces =
      mark === 'overBrace' ||
      mark === 'underBrace' ||
      mark === 'overParen' ||
      mark === 'underParen' ||
      mark === 'overBracket' ||
      mark === 'underBracket';
    const markHeight = braces ? 0.3 * size : mark === 'bar' ? theta : mark === 'doubleBar' ? 3 * theta : 0.18 * size;
    const gap = 0.08 * size;
    const baseTop = Math.max(base.ascent, X_HEIGHT * size);
    place(out.items, base, 0, 0);
    out.width = Math.max(base.width, x0 + markWidth);
    out.ascent = base.ascent;
    out.descent = base.descent;
    // The mark's box: from y0 (its bottom) to y0 + markHeight, in y-up terms.
    const y0 = position === 'over' ? baseTop + gap : -(base.descent + gap + markHeight);
    const y1 = y0 + markHeight;
    if (position === 'over') out.ascent = Math.max(out.ascent, y1 + theta);
    else out.descent = Math.max(out.descent, -y0 + theta);
    const left = x0;
    const right = x0 + markWidth;
    const mid = (left + right) / 2;
    const stroke = (points: [number, number][], width = theta) =>
      out.items.push({
        kind: 'path',
        commands: polyline(points.map(([x, y]) => [x, -y])),
        stroke: this.color,
        strokeWidth: width,
      });
    const dot = (x: number, y: number) => {
      const r = Math.max(0.4, 0.045 * size);
      out.items.push({ kind: 'path', commands: circle(x, -y, r), fill: this.color });
    };
    const head = 0.12 * size;
    switch (mark) {
      case 'hat':
        stroke([
          [left, y0],
          [mid, y1],
          [right, y0],
        ]);
        break;
      case 'check':
        stroke([
          [left, y1],
          [mid, y0],
          [right, y1],
        ]);
        break;
      case 'tilde': {
        // One cubic whose controls sit above and below: the wave of a tilde.
        const h = y1 - y0;
        out.items.push({
          kind: 'path',
          commands: [
            { op: 'M', x: left, y: -(y0 + 0.25 * h) },
            {
              op: 'C',
              x1: left + 0.4 * markWidth,
              y1: -(y1 + 0.6 * h),
              x2: right - 0.4 * markWidth,
              y2: -(y0 - 0.6 * h),
              x: right,
              y: -(y1 - 0.25 * h),
            },
          ],
          stroke: this.color,
          strokeWidth: theta,
        });
        break;
      }
      case 'bar':
        out.items.push({ kind: 'line', x1: left, y1: -y0, x2: right, y2: -y0, width: theta, color: this.color });
        break;
      case 'doubleBar':
        out.items.push({ kind: 'line', x1: left, y1: -y0, x2: right, y2: -y0, width: theta, color: this.color });
        out.items.push({ kind: 'line', x1: left, y1: -y1, x2: right, y2: -y1, width: theta, color: this.color });
        break;
      case 'right':
      case 'left':
      case 'both': {
        const y = (y0 + y1) / 2;
        out.items.push({ kind: 'line', x1: left, y1: -y, x2: right, y2: -y, width: theta, color: this.color });
        if (mark !== 'left')
          stroke([
            [right - head, y + head / 2],
            [right, y],
            [right - head, y - head / 2],
          ]);
        if (mark !== 'right')
          stroke([
            [left + head, y + head / 2],
            [left, y],
            [left + head, y - head / 2],
          ]);
        break;
      }
      case 'overBrace':
      case 'underBrace': {
        // The brace's tips point at the base, its point away from it.
        const near = position === 'over' ? y0 : y1;
        const far = position === 'over' ? y1 : y0;
        const middle = (near + far) / 2;
        const r = Math.min(0.15 * size, markWidth / 4);
        out.items.push({
          kind: 'path',
          commands: [
            { op: 'M', x: left, y: -near },
            { op: 'C', x1: left, y1: -middle, x2: left, y2: -middle, x: left + r, y: -middle },
            { op: 'L', x: mid - r, y: -middle },
            { op: 'C', x1: mid, y1: -middle, x2: mid, y2: -middle, x: mid, y: -far },
            { op: 'C', x1: mid, y1: -middle, x2: mid, y2: -middle, x: mid + r, y: -middle },
            { op: 'L', x: right - r, y: -middle },
            { op: 'C', x1: right, y1: -middle, x2: right, y2: -middle, x: right, y: -near },
          ],
          stroke: this.color,
          strokeWidth: theta * 1.2,
        });
        break;
      }
      case 'overParen':
      case 'underParen': {
        const near = position === 'over' ? y0 : y1;
        const far = position === 'over' ? y1 : y0;
        out.items.push({
          kind: 'path',
          commands: [
            { op: 'M', x: left, y: -near },
            {
              op: 'C',
              x1: left + markWidth * 0.2,
              y1: -far,
              x2: right - markWidth * 0.2,
              y2: -far,
              x: right,
              y: -near,
            },
          ],
          stroke: this.color,
          strokeWidth: theta * 1.2,
        });
        break;
      }
      case 'overBracket':
      case 'underBracket': {
        const near = position === 'over' ? y0 : y1;
        const far = position === 'over' ? y1 : y0;
        stroke([
          [left, near],
          [left, far],
          [right, far],
          [right, near],
        ]);
        break;
      }
      case 'breve': {
        out.items.push({
          kind: 'path',
          commands: [
            { op: 'M', x: left, y: -y1 },
            { op: 'C', x1: left, y1: -y0, x2: right, y2: -y0, x: right, y: -y1 },
          ],
          stroke: this.color,
          strokeWidth: theta,
        });
        break;
      }
      case 'dot':
        dot(mid, (y0 + y1) / 2);
        break;
      case 'ddot':
        dot(mid - 0.1 * size, (y0 + y1) / 2);
        dot(mid + 0.1 * size, (y0 + y1) / 2);
        break;
      case 'tdot':
        dot(mid - 0.15 * size, (y0 + y1) / 2);
        dot(mid, (y0 + y1) / 2);
        dot(mid + 0.15 * size, (y0 + y1) / 2);
        break;
      case 'acute':
        stroke([
          [mid - 0.05 * size, y0],
          [mid + 0.08 * size, y1],
        ]);
        break;
      case 'grave':
        stroke([
          [mid + 0.05 * size, y0],
          [mid - 0.08 * size, y1],
        ]);
        break;
    }
    return out;
  }

  /** A rule over or under the base (m:bar). */
  private bar(base: Piece, position: 'top' | 'bottom', style: Style): Piece {
    const theta = this.rule(style);
    const out = emptyPiece(base.cls);
    place(out.items, base, 0, 0);
    out.width = base.width;
    out.ascent = base.ascent;
    out.descent = base.descent;
    if (position === 'top') {
      const y = base.ascent + 2 * theta;
      out.items.push({ kind: 'line', x1: 0, y1: -y, x2: base.width, y2: -y, width: theta, color: this.color });
      out.ascent = y + 2 * theta;
    } else {
      const y = base.descent + 2 * theta;
      out.items.push({ kind: 'line', x1: 0, y1: y, x2: base.width, y2: y, width: theta, color: this.color });
      out.descent = y + 2 * theta;
    }
    return out;
  }

  /** A border box (m:borderBox, menclose): rules on its sides and strikes through it. */
  private enclosed(content: Piece, sides: readonly MathSide[], strikes: readonly MathStrike[], style: Style): Piece {
    const size = this.size(style);
    const theta = this.rule(style);
    const pad = 0.15 * size;
    const out = emptyPiece('ord');
    place(out.items, content, pad, 0);
    const top = -(content.ascent + pad);
    const bottom = content.descent + pad;
    const right = content.width + 2 * pad;
    const line = (x1: number, y1: number, x2: number, y2: number) =>
      out.items.push({ kind: 'line', x1, y1, x2, y2, width: theta, color: this.color });
    if (sides.includes('top')) line(0, top, right, top);
    if (sides.includes('bottom')) line(0, bottom, right, bottom);
    if (sides.includes('left')) line(0, top, 0, bottom);
    if (sides.includes('right')) line(right, top, right, bottom);
    for (const strike of strikes) {
      if (strike === 'horizontal') line(0, -AXIS * size, right, -AXIS * size);
      else if (strike === 'vertical') line(right / 2, top, right / 2, bottom);
      else if (strike === 'up') line(0, bottom, right, top);
      else line(0, top, right, bottom);
    }
    out.width = right;
    out.ascent = -top + theta;
    out.descent = bottom + theta;
    return out;
  }

  /** Content between fences grown to its height around the axis, its items apart by separators. */
  private delimited(node: Extract<MathNode, { kind: 'delimited' }>, style: Style): Piece {
    const size = this.size(style);
    const axis = AXIS * size;
    const items = node.items.map((item) => this.list(item, style));
    let ascent = 0;
    let descent = 0;
    for (const item of items) {
      ascent = Math.max(ascent, item.ascent);
      descent = Math.max(descent, item.descent);
    }
    // Half the fences' height, symmetric about the axis (TeX's rule 19, delimiterfactor 901).
    const half = Math.max(ascent - axis, descent + axis, 0.45 * size) * 0.95;
    const parts: Piece[] = [];
    const open = this.fence(node.open, half, style);
    parts.push(open);
    const separator = node.separator ?? '';
    items.forEach((item, i) => {
      if (i > 0 && separator !== '') {
        const sep = this.fence(separator, half, style);
        sep.cls = 'punct';
        parts.push(sep);
      }
      parts.push(item);
    });
    parts.push(this.fence(node.close, half, style));
    const gap = 0.06 * size;
    const spaces = parts.map((_, i) => (i === 0 ? 0 : gap));
    return hbox(parts, spaces, 'ord');
  }

  /** A fence `half` high above and below the axis: the glyph when it is tall enough, else drawn. */
  private fence(fence: string, half: number, style: Style): Piece {
    const size = this.size(style);
    const axis = AXIS * size;
    if (fence === '') return { ...emptyPiece(), width: 0.1 * size };
    const theta = this.rule(style);
    if (half <= 0.6 * size || !DRAWN_FENCES.has(fence)) {
      // The glyph, scaled to the height asked (a parenthesis spans about 0.86 em around the axis).
      const glyphSize = half <= 0.6 * size ? size : (2 * half) / 0.86;
      const glyph = this.text([{ ch: fence, request: { family: MATH_FONT, bold: false, italic: false } }], glyphSize);
      const rise = axis - (0.28 * glyphSize - (glyphSize === size ? 0.02 * size : 0));
      const out = emptyPiece(OPENINGS.has(fence) ? 'open' : CLOSINGS.has(fence) ? 'close' : 'ord');
      place(out.items, glyph, 0, glyphSize === size ? 0 : rise);
      out.width = glyph.width;
      out.ascent = glyphSize === size ? glyph.ascent : rise + 0.72 * glyphSize;
      out.descent = glyphSize === size ? glyph.descent : 0.16 * glyphSize - rise;
      return out;
    }
    const top = -(axis + half + 0.05 * size);
    const bottom = -(axis - half - 0.05 * size);
    const height = bottom - top;
    const mid = (top + bottom) / 2;
    const out = emptyPiece(OPENINGS.has(fence) ? 'open' : CLOSINGS.has(fence) ? 'close' : 'ord');
    out.ascent = -top;
    out.descent = bottom;
    const color = this.color;
    const mirror = CLOSINGS.has(fence) || fence === '\u232A';
    let width: number;
    let commands: PathCommand[];
    let filled = false;
    switch (fence) {
      case '(':
      case ')': {
        width = Math.min(0.3 * size + 0.04 * height, 0.65 * size);
        const thick = Math.max(1.6 * theta, 0.05 * size + 0.01 * height);
        const tip = 0.85 * width;
        const outer = 0.1 * width;
        // A cubic with both controls at c reaches 0.25 tip + 0.75 c at its middle.
        const c1 = (outer - 0.25 * tip) / 0.75;
        const c2 = (outer + thick - 0.25 * tip) / 0.75;
        commands = [
          { op: 'M', x: tip, y: top },
          { op: 'C', x1: c1, y1: top + height * 0.2, x2: c1, y2: bottom - height * 0.2, x: tip, y: bottom },
          { op: 'L', x: tip + 0.4 * theta, y: bottom - 0.3 * theta },
          {
            op: 'C',
            x1: c2,
            y1: bottom - height * 0.22,
            x2: c2,
            y2: top + height * 0.22,
            x: tip + 0.4 * theta,
            y: top + 0.3 * theta,
          },
          { op: 'Z' },
        ];
        filled = true;
        break;
      }
      case '[':
      case ']':
      case '\u27E6':
      case '\u27E7':
        width = 0.35 * size;
        commands = polyline([
          [0.8 * width, top],
          [0.2 * width, top],
          [0.2 * width, bottom],
          [0.8 * width, bottom],
        ]);
        break;
      case '\u2308':
      case '\u2309':
        width = 0.35 * size;
        commands = polyline([
          [0.8 * width, top],
          [0.2 * width, top],
          [0.2 * width, bottom],
        ]);
        break;
      case '\u230A':
      case '\u230B':
        width = 0.35 * size;
        commands = polyline([
          [0.2 * width, top],
          [0.2 * width, bottom],
          [0.8 * width, bottom],
        ]);
        break;
      case '{':
      case '}': {
        width = 0.5 * size;
        const r = Math.min(0.15 * size, height / 8);
        const x = 0.45 * width;
        commands = [
          { op: 'M', x: 0.9 * width, y: top },
          { op: 'C', x1: x, y1: top, x2: x, y2: top, x, y: top + r },
          { op: 'L', x, y: mid - r },
          { op: 'C', x1: x, y1: mid, x2: x, y2: mid, x: 0.1 * width, y: mid },
          { op: 'C', x1: x, y1: mid, x2: x, y2: mid, x, y: mid + r },
          { op: 'L', x, y: bottom - r },
          { op: 'C', x1: x, y1: bottom, x2: x, y2: bottom, x: 0.9 * width, y: bottom },
        ];
        break;
      }
      case '|':
      case '\u2223':
        width = 0.25 * size;
        commands = polyline([
          [width / 2, top],
          [width / 2, bottom],
        ]);
        break;
      case '\u2016':
      case '\u2225':
        width = 0.4 * size;
        commands = [
          ...polyline([
            [0.3 * width, top],
            [0.3 * width, bottom],
          ]),
          ...polyline([
            [0.7 * width, top],
            [0.7 * width, bottom],
          ]),
        ];
        break;
      default:
        // ⟨ ⟩ 〈 〉
        width = 0.4 * size;
        commands = polyline([
          [0.85 * width, top],
          [0.15 * width, mid],
          [0.85 * width, bottom],
        ]);
    }
    if (mirror) {
      for (const c of commands) {
        if (c.op === 'Z') continue;
        c.x = width - c.x;
        if (c.op === 'C') {
          c.x1 = width - c.x1;
          c.x2 = width - c.x2;
        }
      }
    }
    out.items.push(
      filled
        ? { kind: 'path', commands, fill: color }
        : { kind: 'path', commands, stroke: color, strokeWidth: Math.max(theta, 0.045 * size) },
    );
    out.width = width;
    return out;
  }

  /** Rows of cells in a grid centred on the axis, each column's cells centred in it. */
  /**
   * Rows of cells in a grid centred on the axis, each column's cells aligned as it says (centred
   * by default). A right-aligned column and the left-aligned one after it are an aligned pair
   * (TeX's aligned, m:mcJc right then left): no gap between them, and a relation starting the
   * second keeps its space as if the first went on.
   */
  private matrix(rows: MathList[][], aligns: readonly MathColumnAlign[] | undefined, style: Style): Piece {
    const size = this.size(style);
    // Cells keep the equation's style: Word sets a display equation's matrix cells full size.
    const cellStyle: Style = { level: style.level, display: style.display };
    const paired = (c: number) => c > 0 && aligns?.[c - 1] === 'right' && aligns?.[c] === 'left';
    const cells = rows.map((row) =>
      row.map((cell, c) => {
        if (!paired(c)) return this.list(cell, cellStyle);
        const atoms = [emptyPiece(), ...this.atoms(cell, cellStyle)];
        return hbox(atoms, spacesBetween(atoms, cellStyle, size));
      }),
    );
    const columns = cells.reduce((most, row) => Math.max(most, row.length), 0);
    const widths: number[] = new Array(columns).fill(0);
    const ascents: number[] = [];
    const descents: number[] = [];
    for (const row of cells) {
      let ascent = 0.7 * size;
      let descent = 0.3 * size;
      row.forEach((cell, c) => {
        widths[c] = Math.max(widths[c] as number, cell.width);
        ascent = Math.max(ascent, cell.ascent);
        descent = Math.max(descent, cell.descent);
      });
      ascents.push(ascent);
      descents.push(descent);
    }
    const gapBefore = (c: number) => (c === 0 ? 0 : paired(c) ? 0 : size);
    const rowGap = 0.35 * size;
    let height = 0;
    for (let r = 0; r < cells.length; r++)
      height += (ascents[r] as number) + (descents[r] as number) + (r > 0 ? rowGap : 0);
    const top = AXIS * size + height / 2;
    const out = emptyPiece('ord');
    let y = top;
    cells.forEach((row, r) => {
      y -= ascents[r] as number;
      let x = 0;
      row.forEach((cell, c) => {
        x += gapBefore(c);
        const width = widths[c] as number;
        const align = aligns?.[c] ?? 'center';
        const slack = width - cell.width;
        place(out.items, cell, x + (align === 'left' ? 0 : align === 'right' ? slack : slack / 2), y);
        x += width;
      });
      y -= (descents[r] as number) + rowGap;
    });
    let width = 0;
    for (let c = 0; c < columns; c++) width += gapBefore(c) + (widths[c] as number);
    out.width = width;
    out.ascent = top;
    out.descent = height - top;
    return out;
  }
}

const DRAWN_FENCES = new Set('()[]{}|‖∣∥⟨⟩〈〉⌈⌉⌊⌋⟦⟧'.split(''));

function nextLevel(style: Style): 0 | 1 | 2 {
  return style.level === 0 ? 1 : 2;
}

/** A circle as four Bézier arcs. */
function circle(x: number, y: number, r: number): PathCommand[] {
  const k = 0.5523 * r;
  return [
    { op: 'M', x: x + r, y },
    { op: 'C', x1: x + r, y1: y + k, x2: x + k, y2: y + r, x, y: y + r },
    { op: 'C', x1: x - k, y1: y + r, x2: x - r, y2: y + k, x: x - r, y },
    { op: 'C', x1: x - r, y1: y - k, x2: x - k, y2: y - r, x, y: y - r },
    { op: 'C', x1: x + k, y1: y - r, x2: x + r, y2: y - k, x: x + r, y },
    { op: 'Z' },
  ];
}

function boxOf(piece: Piece, faces: FontFace[]): MathBox {
  return { width: piece.width, ascent: piece.ascent, descent: piece.descent, items: piece.items, faces };
}

/**
 * An equation as boxes, one per stretch between the places Word lets an equation break across
 * lines: before a binary operator or a relation at its top level (m:brkBin, §22.1.2.16, "before"
 * by default), never inside a run of them. A box that ends before a break keeps the space that
 * follows it, which is slack at a line's end.
 */
export function layoutMath(inline: MathInline, fonts: FontSet): MathBox[] {
  const setter = new MathSetter(fonts, inline.props);
  const style: Style = { level: 0, display: inline.display };
  const atoms = setter.atoms(inline.nodes, style);
  const spaces = spacesBetween(atoms, style, setter.size(style));
  const breaking = (cls: AtomClass) => cls === 'rel' || cls === 'bin';
  const chunks: Piece[] = [];
  let start = 0;
  for (let i = 1; i <= atoms.length; i++) {
    const end = i === atoms.length;
    if (!end && !(breaking((atoms[i] as Piece).cls) && !breaking((atoms[i - 1] as Piece).cls))) continue;
    const chunkSpaces = spaces.slice(start, i);
    chunkSpaces[0] = 0;
    const piece = hbox(atoms.slice(start, i), chunkSpaces);
    if (!end) piece.width += spaces[i] ?? 0;
    chunks.push(piece);
    start = i;
  }
  const faces = [...setter.faces];
  return chunks.map((chunk) => boxOf(chunk, faces));
}

/**
 * Every text an equation draws with the properties it is drawn in (the math font in its styles,
 * ordinary text in the run's): what the font stage loads before layout (font-requests.ts).
 */
export function visitMathRuns(inline: MathInline, visit: (props: RunProperties, text: string) => void): void {
  const base = inline.props;
  const variants = new Map<string, RunProperties>();
  const propsFor = (family: string, bold: boolean, italic: boolean) => {
    const key = `${family}|${bold}|${italic}`;
    let props = variants.get(key);
    if (!props) {
      props = { ...base, font: family, bold, italic };
      variants.set(key, props);
    }
    return props;
  };
  const texts = new Map<RunProperties, string>();
  const add = (props: RunProperties, text: string) => texts.set(props, (texts.get(props) ?? '') + text);
  const upright = propsFor(MATH_FONT, false, false);
  const stack: MathNode[] = [...inline.nodes];
  const push = (list: MathList | undefined) => {
    for (const node of list ?? []) stack.push(node);
  };
  while (stack.length > 0) {
    const node = stack.pop() as MathNode;
    switch (node.kind) {
      case 'run': {
        const style = node.style;
        const bold = style === 'bold' || style === 'boldItalic';
        const italic = style === 'italic' || style === 'boldItalic';
        if (node.normal) {
          add(propsFor(base.font, bold || base.bold, italic || base.italic), node.text);
          break;
        }
        for (const ch of node.text) {
          const letter = /\p{L}/u.test(ch);
          const slanted = italic || (style === undefined && letter);
          const mapped =
            node.script && node.script !== 'roman' ? alphanumeric(ch, node.script, bold, slanted) : undefined;
          if (mapped) add(upright, mapped);
          else add(propsFor(MATH_FONT, bold, slanted), ch === '-' ? '\u2212' : ch);
        }
        break;
      }
      case 'nary':
        add(upright, node.operator);
        break;
      case 'accent':
        if (!STRETCHY[node.accent]) add(upright, node.accent);
        break;
      case 'delimited':
        add(upright, node.open + node.close + (node.separator ?? ''));
        break;
    }
    for (const list of mathLists(node)) push(list);
  }
  for (const [props, text] of texts) visit(props, text);
}
