/**
 * Which of a document's embedded fonts serves a request (docs/engine.md: fonts embedded in the DOCX
 * come first): the same family in the same style, else the family's regular style (font-set.ts
 * tries the caller's fonts in between). Word would synthesise bold or italic from the regular; the
 * painter draws the regular as it is.
 */
import type { EmbeddedFont } from '../model';
import type { FontRequest } from './font-face';
import { normalizeFamilyName } from './font-substitution';

/** The index into `embedded` of the request's family in exactly its style (the first such). */
export function embeddedIndex(embedded: readonly EmbeddedFont[], request: FontRequest): number | undefined {
  const family = normalizeFamilyName(request.family);
  const index = embedded.findIndex(
    (font) =>
      font.bold === request.bold && font.italic === request.italic && normalizeFamilyName(font.family) === family,
  );
  return index < 0 ? undefined : index;
}

/** True when the document embeds some style of the request's family. */
export function embedsFamily(embedded: readonly EmbeddedFont[], family: string): boolean {
  const name = normalizeFamilyName(family);
  return embedded.some((font) => normalizeFamilyName(font.family) === name);
}

/** Face key of an embedded font, unique within a conversion. */
export function embeddedFaceKey(index: number): string {
  return `embedded-${index}`;
}

export function isEmbeddedFaceKey(key: string): boolean {
  return key.startsWith('embedded-');
}
