import type { RevisionMark } from '../../model';
import type { RevisionMode } from './read-context';
import type { XmlElement } from './xml-tree';

/**
 * Tracked changes (ECMA-376 Part 1, §17.13.5): which content each mode shows and how it is marked.
 * markup shows everything, marked; final shows the document as if every change were accepted;
 * original as if every change were rejected. Neither of the last two marks anything.
 */

export type ChangeKind = 'insert' | 'delete' | 'moveFrom' | 'moveTo';

export const CHANGE_ELEMENTS: Readonly<Record<string, ChangeKind>> = {
  'w:ins': 'insert',
  'w:del': 'delete',
  'w:moveFrom': 'moveFrom',
  'w:moveTo': 'moveTo',
};

/** Whether content of this kind of change is present in the output. */
export function isShown(kind: ChangeKind, mode: RevisionMode): boolean {
  if (mode === 'markup') return true;
  const removes = kind === 'delete' || kind === 'moveFrom';
  return mode === 'final' ? !removes : removes;
}

/** Whether the change removes its content in the document as it now stands. */
export function isRemoval(kind: ChangeKind): boolean {
  return kind === 'delete' || kind === 'moveFrom';
}

export function revisionMark(element: XmlElement, kind: RevisionMark['kind']): RevisionMark {
  const mark: RevisionMark = { kind };
  const author = element.attributes['w:author'];
  const date = element.attributes['w:date'];
  if (author) mark.author = author;
  if (date) mark.date = date;
  return mark;
}

/** The tracked change of a paragraph mark or table row: w:ins/w:del/… among the element's children. */
export function changeOf(properties: XmlElement | undefined): { kind: ChangeKind; element: XmlElement } | undefined {
  if (properties === undefined) return undefined;
  // Indexed, not for…of: read for every run and paragraph mark, and the iterator showed among the
  // reader's largest allocations.
  const children = properties.children;
  for (let i = 0; i < children.length; i++) {
    const candidate = children[i] as XmlElement;
    const kind = CHANGE_ELEMENTS[candidate.name];
    if (kind !== undefined) return { kind, element: candidate };
  }
  return undefined;
}
