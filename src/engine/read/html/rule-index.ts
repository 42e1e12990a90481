/**
 * Style sheet rules grouped by the id, class or tag their rightmost compound requires
 * (CssRule.subject), so an element is tested only against rules that can match it: the
 * rules for its id, for each of its classes and for its tag, plus those with no such key.
 * A browser's style engine buckets rules the same way; on a Wikipedia page it turns thousands of
 * selector tests per element into a handful.
 */
import type { CssRule } from './css-rules';
import type { Element } from './html-tree';

export interface RuleIndex {
  byId: ReadonlyMap<string, readonly CssRule[]>;
  byClass: ReadonlyMap<string, readonly CssRule[]>;
  byTag: ReadonlyMap<string, readonly CssRule[]>;
  /** Rules any element may match. */
  other: readonly CssRule[];
}

export function indexRules(rules: readonly CssRule[]): RuleIndex {
  const byId = new Map<string, CssRule[]>();
  const byClass = new Map<string, CssRule[]>();
  const byTag = new Map<string, CssRule[]>();
  const other: CssRule[] = [];
  for (const rule of rules) {
    const subject = rule.subject;
    if (!subject) {
      other.push(rule);
      continue;
    }
    const buckets = subject.kind === 'id' ? byId : subject.kind === 'class' ? byClass : byTag;
    const bucket = buckets.get(subject.name);
    if (bucket) bucket.push(rule);
    else buckets.set(subject.name, [rule]);
  }
  return { byId, byClass, byTag, other };
}

/** css-select's `~=` splits on JavaScript's \s, so the class list is split the same way. */
const CLASS_SEPARATOR = /\s+/;

/**
 * The rule lists that may match `element` (each rule in one of them, once), in no particular
 * order: the index's own arrays, not copies, since an element is looked up once per walk and
 * the rules with no key can be many.
 */
export function candidateRules(index: RuleIndex, element: Element): (readonly CssRule[])[] {
  const out: (readonly CssRule[])[] = [index.other];
  const id = element.attribs.id;
  if (id !== undefined) {
    const rules = index.byId.get(id);
    if (rules) out.push(rules);
  }
  const classes = element.attribs.class;
  if (classes !== undefined && index.byClass.size > 0) {
    const seen = new Set<string>();
    for (const name of classes.split(CLASS_SEPARATOR)) {
      if (name === '' || seen.has(name)) continue;
      seen.add(name);
      const rules = index.byClass.get(name);
      if (rules) out.push(rules);
    }
  }
  const byTag = index.byTag.get(element.name);
  if (byTag) out.push(byTag);
  return out;
}
