/**
 * The document's URLs (`<img src>`, `<a href>`) made absolute as a browser makes them: against the
 * document base URL (HTML Living Standard §2.4.1 "document base URL"), which is the frozen base URL
 * of the first `<base href>` (§4.2.3), itself parsed against the document's own address, the
 * caller's `baseUrl`, the fallback base URL. URL parsing is the WHATWG URL Standard's (`new URL`).
 *
 * With no base at all, a protocol-relative URL (`//host/a.png`, URL Standard §4.4 "scheme-relative
 * special URL string") takes https:, the scheme a document served today would have; any other
 * relative URL is left as written, for the image loader and the link builder to refuse with a
 * warning that asks for `baseUrl`.
 */

/** A scheme (URL Standard §4.4 "URL-scheme string") at the start: the URL is absolute already. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export interface DocumentUrls {
  /** The document base URL, if there is one (from `<base href>` or the caller's baseUrl). */
  readonly base: URL | undefined;
  /** `raw` made absolute against the base; fragments (`#id`), absolute and unresolvable URLs as written (trimmed). */
  resolve(raw: string): string;
}

/**
 * The base from the first `<base href>` (undefined when the document has none) and the caller's
 * `baseUrl`. A `<base href>` that cannot be parsed, or whose scheme is data: or javascript:, is
 * ignored (§4.2.3 "set the frozen base URL") with a warning, since nothing would say so otherwise.
 */
export function documentUrls(
  baseHref: string | undefined,
  baseUrl: string | undefined,
  warnings: string[],
): DocumentUrls {
  const fallback = baseUrl === undefined ? undefined : parse(baseUrl, undefined);
  let base = fallback;
  if (baseHref !== undefined) {
    const href = baseHref.trim();
    const frozen = parse(href, fallback);
    if (frozen && frozen.protocol !== 'data:' && frozen.protocol !== 'javascript:') base = frozen;
    else if (href !== '') {
      warnings.push(
        `the document's <base href="${shorten(href)}"> is ${frozen ? `a ${frozen.protocol} URL` : 'relative and no baseUrl was sent'}; relative URLs ${fallback ? 'resolve against baseUrl instead' : 'have no base'}`,
      );
    }
  }
  return {
    base,
    resolve(raw) {
      const text = raw.trim();
      if (text === '' || text.startsWith('#') || SCHEME.test(text)) return text;
      return parse(text, base)?.href ?? text;
    },
  };
}

/** A URL that needs a base to mean anything: not empty, not a fragment, no scheme. */
export function isRelativeUrl(raw: string): boolean {
  const text = raw.trim();
  return text !== '' && !text.startsWith('#') && !SCHEME.test(text);
}

/** `text` against `base`; a protocol-relative one without a base takes https:. Undefined when it does not parse. */
function parse(text: string, base: URL | undefined): URL | undefined {
  try {
    if (base) return new URL(text, base);
    return new URL(text.startsWith('//') ? `https:${text}` : text);
  } catch {
    return undefined;
  }
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
