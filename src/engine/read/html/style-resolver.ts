/**
 * Each element's declared style for one document: the style sheet rules it matches, found through
 * the rule index, cascaded with its style attribute. Elements that match the same rules and carry
 * the same style attribute (most of a page's paragraphs, list items and spans) share one
 * cascaded map, computed once.
 */
import { type DeclaredStyle, declaredStyle } from './computed-style';
import type { CssRule } from './css-rules';
import type { Element } from './html-tree';
import { candidateRules, indexRules, type RuleIndex } from './rule-index';

/**
 * Selector tests allowed per document: a large sheet over a large tree could still cost
 * candidates × elements matches, so past this budget only style attributes apply.
 */
const MATCH_BUDGET = 5_000_000;
/** Distinct cascades remembered per document; past this they are computed each time. */
const MAX_CACHED_STYLES = 20_000;

export class StyleResolver {
  private readonly index: RuleIndex;
  private readonly hasRules: boolean;
  private matchBudget = MATCH_BUDGET;
  private readonly cache = new Map<string, DeclaredStyle>();

  constructor(rules: readonly CssRule[]) {
    this.index = indexRules(rules);
    this.hasRules = rules.length > 0;
  }

  styleOf(element: Element): DeclaredStyle {
    const matched: CssRule[] = [];
    if (this.hasRules && this.matchBudget > 0) {
      for (const rules of candidateRules(this.index, element)) {
        this.matchBudget -= rules.length;
        for (const rule of rules) if (rule.matches(element)) matched.push(rule);
      }
    }
    const styleAttribute = element.attribs.style;
    let key = styleAttribute ?? '';
    for (const rule of matched) key += `\u0000${rule.order}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const style = declaredStyle(matched, styleAttribute);
    if (this.cache.size < MAX_CACHED_STYLES) this.cache.set(key, style);
    return style;
  }
}
