/**
 * LinkItems as link annotations (ISO 32000-1 §12.5.6.5): a URI action (§12.6.4.7) for URLs, a
 * GoTo action to a named destination (§12.6.4.2) for anchors. No border is drawn: the default
 * /Border is a 1 pt solid line (§12.5.2), so it is set to [0 0 0].
 */
import type { PDFContext, PDFRef } from 'pdf-lib';
import type { LinkItem } from '../../layout';
import { pdfRect } from './pdf-geometry';
import { asciiString, textString } from './pdf-strings';

/** Schemes a link may open: a document must not smuggle javascript:, file: or data: into a PDF. */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:', 'ftp:']);

/**
 * A link's URI as 7-bit ASCII (WHATWG URL serialisation percent-encodes paths and punycodes
 * hosts), or undefined for an unsafe scheme or what does not parse. "www.…" without a scheme is
 * taken as http, as Word does.
 */
export function linkUri(url: string): string | undefined {
  const trimmed = url.trim();
  const candidate = /^www\./i.test(trimmed) ? `http://${trimmed}` : trimmed;
  if (!URL.canParse(candidate)) return undefined;
  const parsed = new URL(candidate);
  return LINK_SCHEMES.has(parsed.protocol) ? parsed.href : undefined;
}

function linkAction(context: PDFContext, target: LinkItem['target'], anchorExists: (name: string) => boolean) {
  if ('url' in target) {
    const uri = linkUri(target.url);
    return uri === undefined ? undefined : context.obj({ Type: 'Action', S: 'URI', URI: asciiString(uri) });
  }
  return anchorExists(target.anchor)
    ? context.obj({ Type: 'Action', S: 'GoTo', D: textString(target.anchor) })
    : undefined;
}

/** The annotation for a link, or undefined when its target is unusable (empty URL, unknown anchor). */
export function linkAnnotation(
  context: PDFContext,
  item: LinkItem,
  pageHeight: number,
  anchorExists: (name: string) => boolean,
): PDFRef | undefined {
  const action = linkAction(context, item.target, anchorExists);
  if (!action) return undefined;
  return context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: pdfRect(pageHeight, item),
      Border: [0, 0, 0],
      // Print flag (§12.5.3): part of the page as printed too, as PDF/A asks of every annotation.
      F: 4,
      A: action,
    }),
  );
}
