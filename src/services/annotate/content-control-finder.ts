/**
 * Content controls (ECMA-376 Part 1 §17.5.2, w:sdt) and the ids and groups a request can name
 * them by (docs/api.md "What a template field is"): the w:tag value (§17.5.2.33) itself, or when the
 * tag holds JSON (superdoc's field annotations: {"fieldId":…,"fieldType":…}) its "fieldId" or
 * "id", and its "group" or "groupId" for groups; and the control's w:id (§17.5.2.18).
 */
import type { FieldTarget } from './annotate-types';
import { type Element, elementChildren, isW, wAttr, wChild, wDescendants } from './ooxml-dom';

export interface ControlKeys {
  /** The tag value as written. */
  tag: string | undefined;
  /** Ids from the tag's JSON (fieldId, id). */
  jsonIds: string[];
  /** The numeric w:id. */
  numericId: string | undefined;
  groups: string[];
}

/** Where a control sits (§17.5.2: block, inline/run, row and cell level controls). */
export type ControlLevel = 'block' | 'inline' | 'row' | 'cell';

export function controlKeys(sdt: Element): ControlKeys {
  const properties = wChild(sdt, 'sdtPr');
  const tag = wAttr(wChild(properties, 'tag'), 'val');
  const jsonIds: string[] = [];
  const groups: string[] = [];
  const json = parseTagJson(tag);
  if (json) {
    for (const name of ['fieldId', 'id']) pushKey(jsonIds, json[name]);
    for (const name of ['group', 'groupId']) pushKey(groups, json[name]);
  }
  return { tag, jsonIds, numericId: wAttr(wChild(properties, 'id'), 'val'), groups };
}

/** The id a caller most likely means for this control (for discovery): JSON id, else the tag. */
export function controlId(keys: ControlKeys): string | undefined {
  return keys.jsonIds[0] ?? (parseTagJson(keys.tag) ? undefined : keys.tag);
}

export function controlMatches(keys: ControlKeys, target: FieldTarget): boolean {
  if (target.group !== undefined) return keys.groups.includes(target.group);
  return keys.tag === target.id || keys.jsonIds.includes(target.id) || keys.numericId === target.id;
}

/** Every content control in the part, outer before inner, in document order. */
export function findControls(root: Element): Element[] {
  return wDescendants(root, 'sdt');
}

export function controlContent(sdt: Element): Element | undefined {
  return wChild(sdt, 'sdtContent');
}

export function controlLevel(sdt: Element): ControlLevel {
  // Where it sits decides first: some writers put paragraphs inside a control that sits inside a
  // paragraph (invalid, §17.5.2.30 allows only runs there); it is still a run-level control.
  const parent = sdt.parentNode;
  if (isW(parent, 'tbl')) return 'row';
  if (isW(parent, 'tr')) return 'cell';
  if (INLINE_PARENTS.some((name) => isW(parent, name))) return 'inline';
  const content = controlContent(sdt);
  if (content) {
    for (const child of wChildrenAny(content)) {
      if (isW(child, 'tr')) return 'row';
      if (isW(child, 'tc')) return 'cell';
      if (isW(child, 'p') || isW(child, 'tbl')) return 'block';
      if (isW(child, 'r')) return 'inline';
    }
  }
  if (isW(parent, 'sdtContent') && parent?.parentNode) return controlLevel(parent.parentNode as Element);
  return 'block';
}

/** Elements whose content controls are run-level (§17.5.2.31 and the run containers of §17.3.2). */
const INLINE_PARENTS = ['p', 'hyperlink', 'smartTag', 'fldSimple', 'ins', 'del', 'moveTo', 'moveFrom', 'dir', 'bdo'];

/** Whether the control is a checkbox (w14:checkbox, Word 2010). */
export function checkboxProperties(sdt: Element): Element | undefined {
  const properties = wChild(sdt, 'sdtPr');
  if (!properties) return undefined;
  for (let child = properties.firstChild; child; child = child.nextSibling) {
    const element = child as Element;
    if (element.nodeType === 1 && element.localName === 'checkbox') return element;
  }
  return undefined;
}

export function isPictureControl(sdt: Element): boolean {
  return wChild(wChild(sdt, 'sdtPr'), 'picture') !== undefined;
}

/** Content children, looking through nested controls' content (a control around a control). */
function wChildrenAny(content: Element): Element[] {
  const out: Element[] = [];
  for (const child of elementChildren(content)) {
    if (isW(child, 'sdt')) {
      const inner = controlContent(child);
      if (inner) out.push(...wChildrenAny(inner));
    } else out.push(child);
  }
  return out;
}

function parseTagJson(tag: string | undefined): Record<string, unknown> | undefined {
  if (tag === undefined || !tag.trimStart().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(tag);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function pushKey(keys: string[], value: unknown): void {
  if (typeof value === 'string' && value !== '') keys.push(value);
  else if (typeof value === 'number' && Number.isFinite(value)) keys.push(String(value));
}
