/**
 * Which of a document's embedded fonts serves a request (docs/engine.md: fonts embedded in the DOCX
 * come first): the same family in the same style, else the family's regular style. Word would
 * synthesise bold or italic from the regular; the painter draws the regular as it is.
 */
import type { EmbeddedFont } from '../model';
import type { FontRequest } from './font-face';
import { normalizeFamilyName } from './font-substitution';

/** Indexes into `embedded` to try, best first (at most two). */
export function embeddedCandidates(embedded: readonly EmbeddedFont[], request: FontRequest): number[] {
  const family = normalizeFamilyName(request.family);
  const sameFamily = embedded
    .map((font, index) => ({ font, index }))
    .filter(({ font }) => normalizeFamilyName(font.family) === family);
  const exact = sameFamily.find(({ font }) => font.bold === request.bold && font.italic === request.italic);
  const regular = sameFamily.find(({ font }) => !font.bold && !font.italic);
  return [...new Set([exact?.index, regular?.index].filter((index) => index !== undefined))];
}

/** Face key of an embedded font, unique within a conversion. */
export function embeddedFaceKey(index: number): string {
  return `embedded-${index}`;
}

export function isEmbeddedFaceKey(key: string): boolean {
  return key.startsWith('embedded-');
}
