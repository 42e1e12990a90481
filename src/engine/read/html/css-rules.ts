/**
 * Style sheets (<style> elements) as a list of rules: selector, specificity (Selectors 4 §17),
 * source order and declarations. css-tree parses tolerantly (CSS Syntax 3 §5 error recovery);
 * selectors are matched by css-select. Rules inside @media apply when the query matches a printed
 * page (media-queries.ts; CSS Conditional 3 §2), a <style media> sheet likewise (HTML §4.2.6);
 * rules inside @supports and @layer blocks apply (order as written: layers are not reordered).
 * Plain @page rules are collected apart: they give the paper and margins (page-geometry.ts).
 * Other at-rules are skipped.
 */
import { compile } from 'css-select';
import type { CssNode, Declaration, SelectorList } from 'css-tree';
import generate from 'css-tree/generator';
import parse from 'css-tree/parser';
import type { Element } from './html-tree';
import { type MediaEnvironment, mediaMatches } from './media-queries';

export interface CssDeclaration {
  property: string;
  value: string;
  important: boolean;
}

export interface CssRule {
  matches: (element: Element) => boolean;
  /** [ids, classes/attributes/pseudo-classes, types] packed as one comparable number. */
  specificity: number;
  order: number;
  declarations: CssDeclaration[];
  /**
   * A simple selector of the rightmost compound that every matching element must have (an id, a
   * class or a tag name), so rules can be indexed by it (rule-index.ts); absent when the compound
   * has none that can be looked up exactly (`*`, attribute or pseudo-class selectors only).
   */
  subject?: RuleSubject;
}

export interface RuleSubject {
  kind: 'id' | 'class' | 'tag';
  name: string;
}

/** Bounds on what a hostile sheet can cost: rules kept, and the text parsed. */
const MAX_RULES = 5000;
const MAX_SHEET_CHARS = 2_000_000;

/** One style sheet's text and the media it is for (a <style media> attribute; absent: all). */
export interface StyleSheetSource {
  text: string;
  media?: string;
}

/** Style sheets parsed once, read twice: for @page first, then for the rules at the page's size. */
export interface ParsedSheet {
  ast: CssNode;
  media?: string;
}

export function parseStyleSheets(sheets: readonly (string | StyleSheetSource)[]): ParsedSheet[] {
  const parsed: ParsedSheet[] = [];
  let budget = MAX_SHEET_CHARS;
  for (const sheet of sheets) {
    if (budget <= 0) break;
    const { text, media } = typeof sheet === 'string' ? { text: sheet, media: undefined } : sheet;
    const source = text.slice(0, budget);
    budget -= source.length;
    try {
      const ast = parse(source, { parseValue: false, parseAtrulePrelude: false, parseCustomProperty: false });
      parsed.push(media === undefined ? { ast } : { ast, media });
    } catch {
      // A sheet css-tree cannot read at all is left out.
    }
  }
  return parsed;
}

/**
 * The style rules that apply on a printed page of `environment`'s size. Strings are parsed here
 * (tests and callers without @page); the reader passes the sheets it parsed for pageDeclarations.
 */
export function readStyleSheets(
  sheets: readonly (string | StyleSheetSource)[] | readonly ParsedSheet[],
  environment: MediaEnvironment = LETTER_ENVIRONMENT,
): CssRule[] {
  const parsed = sheets.every((s) => typeof s === 'object' && 'ast' in s)
    ? (sheets as readonly ParsedSheet[])
    : parseStyleSheets(sheets as readonly (string | StyleSheetSource)[]);
  const rules: CssRule[] = [];
  for (const sheet of parsed) {
    if (sheet.media !== undefined && !mediaMatches(sheet.media, environment)) continue;
    walkSheet(sheet.ast, environment, 0, (child) => {
      if (rules.length >= MAX_RULES || child.type !== 'Rule' || child.prelude.type !== 'SelectorList') return;
      const declarations = readDeclarations(child.block);
      if (declarations.length === 0) return;
      for (const selector of (child.prelude as SelectorList).children) {
        const compiled = compileSelector(selector);
        if (compiled) rules.push({ ...compiled, order: rules.length, declarations });
      }
    });
  }
  return rules;
}

/**
 * The declarations of the plain @page rules that apply (CSS Paged Media 3 §6), in cascade order:
 * later ones win. Page selectors (:first, :left, :right, named pages) are left out: the model's
 * section has one page geometry.
 */
export function pageDeclarations(sheets: readonly ParsedSheet[], environment: MediaEnvironment): CssDeclaration[] {
  const out: CssDeclaration[] = [];
  for (const sheet of sheets) {
    if (sheet.media !== undefined && !mediaMatches(sheet.media, environment)) continue;
    walkSheet(sheet.ast, environment, 0, (child) => {
      if (child.type !== 'Atrule' || child.name.toLowerCase() !== 'page' || !child.block) return;
      if (preludeText(child) !== '') return;
      out.push(...readDeclarations(child.block));
    });
  }
  // !important page declarations over the others (CSS Cascade 4 §6.4).
  return [...out.filter((d) => !d.important), ...out.filter((d) => d.important)];
}

/** The environment readStyleSheets assumes without one: US Letter, 1 in margins. */
const LETTER_ENVIRONMENT: MediaEnvironment = { width: 624, height: 864, pageWidth: 816, pageHeight: 1056 };

function preludeText(rule: CssNode): string {
  if (rule.type !== 'Atrule' || !rule.prelude) return '';
  return (rule.prelude.type === 'Raw' ? rule.prelude.value : generate(rule.prelude)).trim();
}

/**
 * Calls `visit` on each rule and at-rule that applies on the page, in order: the contents of
 * matching @media, of @supports (CSS Conditional 3 §6: a print engine's answer is taken as yes)
 * and of @layer blocks (CSS Cascade 5 §6.4) are walked as if written in their place.
 */
function walkSheet(
  node: CssNode,
  environment: MediaEnvironment,
  nesting: number,
  visit: (child: CssNode) => void,
): void {
  if (node.type !== 'StyleSheet' && node.type !== 'Block') return;
  node.children.forEach((child) => {
    if (child.type === 'Atrule') {
      const name = child.name.toLowerCase();
      const grouping =
        (name === 'media' && mediaMatches(preludeText(child), environment)) || name === 'supports' || name === 'layer';
      if (grouping) {
        if (child.block && nesting < 4) walkSheet(child.block, environment, nesting + 1, visit);
        return;
      }
    }
    visit(child);
  });
}

function compileSelector(selector: CssNode): Omit<CssRule, 'order' | 'declarations'> | undefined {
  let ids = 0;
  let classes = 0;
  let types = 0;
  let pseudoElement = false;
  if (selector.type !== 'Selector') return undefined;
  let subject: RuleSubject | undefined;
  selector.children.forEach((part) => {
    if (part.type === 'Combinator') subject = undefined;
    else subject = betterSubject(subject, part);
    if (part.type === 'IdSelector') ids++;
    else if (part.type === 'ClassSelector' || part.type === 'AttributeSelector' || part.type === 'PseudoClassSelector')
      classes++;
    else if (part.type === 'TypeSelector' && part.name !== '*') types++;
    else if (part.type === 'PseudoElementSelector') pseudoElement = true;
  });
  // ::before/::after content and ::first-line are not document text this reader can place.
  if (pseudoElement) return undefined;
  try {
    const query = compile<unknown, Element>(generate(selector), { xmlMode: false });
    return {
      matches: (element) => {
        try {
          return query(element);
        } catch {
          return false;
        }
      },
      specificity: Math.min(ids, 255) * 65536 + Math.min(classes, 255) * 256 + Math.min(types, 255),
      ...(subject ? { subject } : {}),
    };
  } catch {
    // Pseudo-classes css-select does not know (:hover, :visited…) never match a printed page.
    return undefined;
  }
}

/**
 * The most selective lookup key of a compound so far: an id over a class over a tag. css-select
 * compares ids and classes case-sensitively (no quirks mode) and tag names lower-cased, so these
 * are exact necessary conditions. Escaped names are left out: css-tree keeps them as written.
 */
function betterSubject(current: RuleSubject | undefined, part: CssNode): RuleSubject | undefined {
  if (current?.kind === 'id') return current;
  if (part.type === 'IdSelector' && !part.name.includes('\\')) return { kind: 'id', name: part.name };
  if (current?.kind === 'class') return current;
  if (part.type === 'ClassSelector' && !part.name.includes('\\')) return { kind: 'class', name: part.name };
  if (current) return current;
  if (part.type === 'TypeSelector' && part.name !== '*' && !/[\\|]/.test(part.name))
    return { kind: 'tag', name: part.name.toLowerCase() };
  return current;
}

function readDeclarations(block: CssNode): CssDeclaration[] {
  const out: CssDeclaration[] = [];
  if (block.type !== 'Block') return out;
  block.children.forEach((node) => {
    if (node.type !== 'Declaration') return;
    const declaration = node as Declaration;
    const value = declaration.value.type === 'Raw' ? declaration.value.value : generate(declaration.value);
    out.push({
      property: declaration.property.toLowerCase(),
      value: value.trim(),
      important: declaration.important !== false,
    });
  });
  return out;
}

/** A style attribute's declarations (CSS Style Attributes §3), tolerant of junk. */
export function readStyleAttribute(text: string): CssDeclaration[] {
  if (text.length > 100_000) text = text.slice(0, 100_000);
  const out: CssDeclaration[] = [];
  for (const part of text.split(';')) {
    const colon = part.indexOf(':');
    if (colon <= 0) continue;
    const property = part.slice(0, colon).trim().toLowerCase();
    let value = part.slice(colon + 1).trim();
    let important = false;
    const bang = /!\s*important\s*$/i.exec(value);
    if (bang) {
      important = true;
      value = value.slice(0, bang.index).trim();
    }
    if (property !== '' && value !== '') out.push({ property, value, important });
  }
  return out;
}
