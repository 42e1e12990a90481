/**
 * The story parts of a WordprocessingML package where fields can live: the main document and the
 * headers, footers, footnotes and endnotes it relates to (ECMA-376 Part 1 §11.3). Found through
 * relationships and content types (Part 2 §9.3, §10.1), never by guessing names: the main
 * document is the package's officeDocument relationship target, the others targets of its own
 * relationships. Text boxes live inside these parts (w:txbxContent), so they need no parts of
 * their own.
 */

import { type OpcPackage, relationshipKind } from '../../engine';
import { ApiError } from '../../errors';

const STORY_KINDS = new Set(['header', 'footer', 'footnotes', 'endnotes']);
/** Main document content types: document, template, macro-enabled (Part 1 §11.3.10). */
const MAIN_CONTENT_TYPE =
  /wordprocessingml\.(document|template)\.main\+xml$|ms-word\.(document|template)\.macroEnabled(\.main)?\+xml$/;

export interface StoryParts {
  main: string;
  /** Headers, footers, footnotes and endnotes, each once, in relationship order. */
  others: string[];
}

export function storyParts(opc: OpcPackage): StoryParts {
  const office = opc
    .relationships('')
    .find((relationship) => !relationship.external && relationshipKind(relationship) === 'officeDocument');
  const main = office?.target;
  if (main === undefined || !opc.hasPart(main)) {
    throw new ApiError(
      'INVALID_DOCUMENT',
      'The package has no main document (no officeDocument relationship): it is not a DOCX.',
    );
  }
  const type = opc.contentType(main);
  if (type !== undefined && !MAIN_CONTENT_TYPE.test(type)) {
    throw new ApiError(
      'INVALID_DOCUMENT',
      `The package's main part ${main} is ${type}, not a WordprocessingML document.`,
    );
  }
  const others: string[] = [];
  for (const relationship of opc.relationships(main)) {
    if (relationship.external || !STORY_KINDS.has(relationshipKind(relationship))) continue;
    if (opc.hasPart(relationship.target) && !others.includes(relationship.target) && relationship.target !== main) {
      others.push(relationship.target);
    }
  }
  return { main, others };
}
