/**
 * Mathematics in the document model: a small tree of plain data shaped after Office Math
 * (ECMA-376 Part 1 §22.1), which is what the DOCX writer produces and the richest target we have.
 * Readers map their notation onto it (src/engine/read/ooxml/math-reader.ts, src/engine/read/html/mathml-reader.ts);
 * layout sets it in two dimensions (src/engine/layout/math-layout.ts). mathText is its linear text.
 */

/**
 * How a run is set (m:sty, §22.1.2.112, and m:scr, §22.1.2.94). Unset: the default math style,
 * italic for single letters and upright for everything else.
 */
export type MathStyle = 'plain' | 'bold' | 'italic' | 'boldItalic';
export type MathScript = 'roman' | 'script' | 'fraktur' | 'double-struck' | 'sans-serif' | 'monospace';

/**
 * The most columns and rows a matrix keeps (readers drop the rest): every row is padded to the
 * widest, so both are bounded against hostile input.
 */
export const MAX_MATRIX_COLUMNS = 64;
export const MAX_MATRIX_ROWS = 1000;

/** A sequence of math content: what fills an argument slot (m:e, m:num, m:sub…). */
export type MathList = MathNode[];

export type MathNode =
  /** m:r (§22.1.2.87): text; `normal` is ordinary text (m:nor, §22.1.2.73), not math. */
  | { kind: 'run'; text: string; style?: MathStyle; script?: MathScript; normal?: true }
  /** m:f (§22.1.2.36); `noBar` is a stacked fraction without a rule (m:type noBar). */
  | { kind: 'fraction'; numerator: MathList; denominator: MathList; noBar?: true }
  /** m:rad (§22.1.2.88): a square root when `degree` is absent. */
  | { kind: 'radical'; base: MathList; degree?: MathList }
  /** m:sSub, m:sSup, m:sSubSup (§22.1.2.101–103): at least one of sub and sup is set. */
  | { kind: 'scripts'; base: MathList; sub?: MathList; sup?: MathList }
  /**
   * m:nary (§22.1.2.70): a large operator (∑ ∫ …) with its limits and the expression it applies
   * to; `limits` under and over (undOvr) or as scripts (subSup).
   */
  | {
      kind: 'nary';
      operator: string;
      limits: 'underOver' | 'scripts';
      sub?: MathList;
      sup?: MathList;
      base: MathList;
    }
  /** m:limLow / m:limUpp (§22.1.2.54, §22.1.2.56): a limit set under or over its base. */
  | { kind: 'limit'; position: 'under' | 'over'; base: MathList; limit: MathList }
  /** m:acc (§22.1.2.1): an accent character over the base. */
  | { kind: 'accent'; accent: string; base: MathList }
  /**
   * m:d (§22.1.2.24): content between fences; '' for a missing fence. `items` are the
   * separated parts (m:e each), `separator` between them.
   */
  | { kind: 'delimited'; open: string; close: string; separator?: string; items: MathList[] }
  /**
   * m:m (§22.1.2.60): rows of cells, every row as long as the longest; `columns` aligns each
   * column's cells (m:mcJc, §22.1.2.62), centred when unset. A right-aligned column followed by a
   * left-aligned one is an aligned pair, as TeX's aligned equations are.
   */
  | { kind: 'matrix'; rows: MathList[][]; columns?: MathColumnAlign[] }
  /** m:box (§22.1.2.13): a group that is one unit, as a MathML mrow inside a sequence is. */
  | { kind: 'group'; content: MathList }
  /** m:bar (§22.1.2.7): a rule over (`top`) or under (`bottom`) the base. */
  | { kind: 'bar'; position: 'top' | 'bottom'; base: MathList }
  /**
   * m:borderBox (§22.1.2.11), MathML menclose: the content with rules on the `sides` listed
   * (every side unless m:hideTop… hide it) and the `strikes` drawn through it (m:strikeH,
   * m:strikeV, m:strikeBLTR, m:strikeTLBR).
   */
  | { kind: 'enclosed'; content: MathList; sides: MathSide[]; strikes?: MathStrike[] }
  /** m:phant (§22.1.2.81) with m:show off: takes the room of its content without showing it. */
  | { kind: 'phantom'; content: MathList };

export type MathSide = 'top' | 'bottom' | 'left' | 'right';
export type MathColumnAlign = 'left' | 'center' | 'right';
/** Strikes through enclosed content: horizontal, vertical, bottom-left to top-right, top-left to bottom-right. */
export type MathStrike = 'horizontal' | 'vertical' | 'up' | 'down';

/** The lists a node holds, in reading order (a phantom's content too, which takes room though it shows nothing). */
export function mathLists(node: MathNode): MathList[] {
  const lists: (MathList | undefined)[] = (() => {
    switch (node.kind) {
      case 'run':
        return [];
      case 'fraction':
        return [node.numerator, node.denominator];
      case 'radical':
        return [node.degree, node.base];
      case 'scripts':
        return [node.base, node.sub, node.sup];
      case 'nary':
        return [node.sub, node.sup, node.base];
      case 'limit':
        return [node.base, node.limit];
      case 'accent':
      case 'bar':
        return [node.base];
      case 'delimited':
        return node.items;
      case 'matrix':
        return node.rows.flat();
      case 'group':
      case 'enclosed':
      case 'phantom':
        return [node.content];
    }
  })();
  return lists.filter((list): list is MathList => list !== undefined);
}

/**
 * The linear text of math: its runs' text in order, with the characters structures draw (fences,
 * separators, accents, n-ary operators), joined as they stand, as Word's m:t text reads (a phantom
 * shows nothing). What layout draws in place of set mathematics. Iterative: the tree may be deep.
 */
export function mathText(nodes: MathList): string {
  const parts: string[] = [];
  const stack: MathNode[] = [...nodes].reverse();
  const push = (list: MathList | undefined) => {
    if (list) for (let i = list.length - 1; i >= 0; i--) stack.push(list[i] as MathNode);
  };
  const run = (text: string): MathNode => ({ kind: 'run', text });
  while (stack.length > 0) {
    const node = stack.pop() as MathNode;
    switch (node.kind) {
      case 'run':
        parts.push(node.text);
        break;
      case 'fraction':
        // Pushed in reverse: the numerator comes out first.
        push(node.denominator);
        push(node.numerator);
        break;
      case 'radical':
        push(node.base);
        push(node.degree);
        break;
      case 'scripts':
        push(node.sup);
        push(node.sub);
        push(node.base);
        break;
      case 'nary':
        push(node.base);
        push(node.sup);
        push(node.sub);
        stack.push(run(node.operator));
        break;
      case 'limit':
        push(node.limit);
        push(node.base);
        break;
      case 'accent':
        stack.push(run(node.accent));
        push(node.base);
        break;
      case 'delimited': {
        stack.push(run(node.close));
        for (let i = node.items.length - 1; i >= 0; i--) {
          push(node.items[i]);
          if (i > 0 && node.separator) stack.push(run(node.separator));
        }
        stack.push(run(node.open));
        break;
      }
      case 'matrix': {
        // Cells and rows apart by a space: glued together they would read as one expression.
        let first = true;
        for (let r = node.rows.length - 1; r >= 0; r--) {
          const row = node.rows[r] as MathList[];
          for (let c = row.length - 1; c >= 0; c--) {
            if (!first) stack.push(run(' '));
            first = false;
            push(row[c]);
          }
        }
        break;
      }
      case 'group':
      case 'enclosed':
        push(node.content);
        break;
      case 'bar':
        push(node.base);
        break;
      case 'phantom':
        break;
    }
  }
  return parts.join('');
}
