import type { XmlElement } from './xml-tree';

/**
 * Markup Compatibility (ECMA-376 Part 3, §10.2): mc:AlternateContent offers mc:Choice branches,
 * each requiring namespaces by prefix, and an mc:Fallback. A consumer takes the first Choice whose
 * required namespaces it understands, else the Fallback. "Understands" here means the reader can
 * make something of the content: DrawingML shapes and groups (text boxes), Word 2010+ extensions.
 * Charts ex (cx), 3D models (am3d), ink, extended symbols (w16se:symEx: emoji by code point)… are
 * not understood, so their Fallback (a picture, a plain w:t) is used.
 */
const UNDERSTOOD = new Set([
  'w',
  'r',
  'wp',
  'a',
  'pic',
  'm',
  'v',
  'o',
  'w10',
  'mc',
  'wps',
  'wpg',
  'wpc',
  'wp14',
  'w14',
  'w15',
  'w16',
  'w16cid',
  'w16cex',
  'w16du',
  'w16sdtdh',
  'w16sdtfl',
  'a14',
]);

/** The branch to read (an mc:Choice or the mc:Fallback), or undefined when there is none. */
export function chooseAlternative(alternateContent: XmlElement): XmlElement | undefined {
  let fallback: XmlElement | undefined;
  for (const branch of alternateContent.children) {
    if (branch.name === 'mc:Choice') {
      const requires = branch.attributes.Requires ?? branch.attributes['mc:Requires'] ?? '';
      if (requires.split(/\s+/).every((prefix) => prefix === '' || UNDERSTOOD.has(prefix))) return branch;
    } else if (branch.name === 'mc:Fallback') {
      fallback ??= branch;
    }
  }
  return fallback;
}

/**
 * An element's children with every mc:AlternateContent replaced by its chosen branch's children,
 * for places where properties may be wrapped (w:lvl's w:numFmt in Word 2010+ files). Returns the
 * original array when there is nothing to replace.
 */
export function effectiveChildren(element: XmlElement | undefined): readonly XmlElement[] {
  if (element === undefined) return [];
  if (!element.children.some((candidate) => candidate.name === 'mc:AlternateContent')) return element.children;
  const out: XmlElement[] = [];
  for (const candidate of element.children) {
    if (candidate.name !== 'mc:AlternateContent') out.push(candidate);
    else out.push(...effectiveChildren(chooseAlternative(candidate)));
  }
  return out;
}
