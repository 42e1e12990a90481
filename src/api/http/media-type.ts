import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../../errors';
import type { AppEnv } from './app-env';

/** The essence of a Content-Type header (RFC 9110 §8.3.1): type/subtype, lower-cased, no parameters. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  const essence = header?.split(';', 1)[0]?.trim().toLowerCase();
  return essence ? essence : undefined;
}

/** 415 unless the request body is one of `accepted` (the route's documented content types). */
export const requireMediaType =
  (...accepted: string[]): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const given = mediaTypeOf(c.req.header('Content-Type'));
    if (!given || !accepted.includes(given)) {
      throw new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Send the request body as ${accepted.join(' or ')}${given ? `, not ${given}` : ' with a Content-Type header'}.`,
      );
    }
    await next();
  };

/** One media range of an Accept header (RFC 9110 §12.5.1): `type/subtype`, how many parameters it has, its weight. */
interface MediaRange {
  type: string;
  subtype: string;
  parameters: number;
  q: number;
}

/** RFC 9110 §5.6.2 token, §12.4.2 qvalue. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** `text` split at `separator` where it is not inside a quoted string (RFC 9110 §5.6.4), so a quoted `,` or `;` stays. */
function splitUnquoted(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted && char === '\\') {
      current += char + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/**
 * The media ranges of an Accept header (RFC 9110 §12.5.1). The weight `q` ends a range's own
 * parameters; what follows it are extensions, ignored. An element that is not a range (`pdf`, a
 * bare `*`, a q that is not a qvalue) is left out rather than failing the request.
 */
function mediaRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const element of splitUnquoted(accept, ',')) {
    const [range = '', ...parameters] = splitUnquoted(element, ';').map((part) => part.trim());
    const [type = '', subtype = '', ...rest] = range.toLowerCase().split('/');
    if (rest.length > 0 || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) continue;
    let q = 1;
    let counted = 0;
    for (const parameter of parameters) {
      if (parameter === '') continue;
      const [name = '', value = ''] = parameter.split('=', 2).map((part) => part.trim());
      if (name.toLowerCase() !== 'q') {
        counted++;
        continue;
      }
      q = QVALUE.test(value) ? Number(value) : Number.NaN;
      break;
    }
    if (!Number.isNaN(q)) ranges.push({ type, subtype, parameters: counted, q });
  }
  return ranges;
}

/**
 * The weight `ranges` give `mediaType` (no parameters of its own): that of the most specific range
 * that matches it, `type/subtype` (more parameters more specific) before `type/*` before `*\/*`
 * (RFC 9110 §12.5.1); 0 when none does. The parameters of a range are not compared: a caller
 * asking for `application/json; charset=utf-8` is asking for JSON.
 */
function weightOf(mediaType: string, ranges: readonly MediaRange[]): number {
  const [type, subtype] = mediaType.split('/');
  let rank = -1;
  let q = 0;
  for (const range of ranges) {
    const specificity =
      range.type === '*'
        ? 0
        : range.type !== type
          ? -1
          : range.subtype === '*'
            ? 1
            : range.subtype === subtype
              ? 2 + range.parameters
              : -1;
    if (specificity > rank) [rank, q] = [specificity, range.q];
    else if (specificity === rank && specificity >= 0) q = Math.max(q, range.q);
  }
  return q;
}

/**
 * Which of `offered` (the route's representations, most preferred first) an Accept header asks
 * for: the one of highest weight, the route's order breaking ties, so `*\/*` or `application/*`
 * gets the first. Without the header, or with nothing in it that reads as a media range, any
 * representation is acceptable (RFC 9110 §12.5.1) and the first is given. Undefined when the
 * header gives every offered type weight 0.
 */
export function preferredMediaType(accept: string | undefined, offered: readonly string[]): string | undefined {
  const ranges = mediaRanges(accept ?? '');
  if (ranges.length === 0) return offered[0];
  let chosen: string | undefined;
  let best = 0;
  for (const mediaType of offered) {
    const q = weightOf(mediaType, ranges);
    if (q > best) [chosen, best] = [mediaType, q];
  }
  return chosen;
}

/**
 * The representation to answer with, of `offered` (most preferred first), chosen by the request's
 * Accept header. The answer varies with Accept, and says so (`Vary`, RFC 9110 §12.5.5). When the
 * header accepts none of them, RFC 9110 §12.5.1 lets a server answer anyway or answer 406; a
 * caller that asked only for a PDF would otherwise get a DOCX or JSON where it expects a PDF, so
 * it is 406 NOT_ACCEPTABLE, before any work is done, saying what the request can answer (`hint`
 * says how to get another type, such as annotate's `to`).
 */
export function negotiate(c: Context<AppEnv>, offered: readonly string[], hint?: string): string {
  c.header('Vary', 'Accept', { append: true });
  const accept = c.req.header('Accept');
  const chosen = preferredMediaType(accept, offered);
  if (chosen !== undefined) return chosen;
  const asked = (accept ?? '').length > 200 ? `${accept?.slice(0, 200)}…` : accept;
  throw new ApiError(
    'NOT_ACCEPTABLE',
    `The Accept header (${asked}) takes none of what this request can answer: ${offered.join(' or ')}. Ask for one of them, or send no Accept for ${offered[0]}${hint ? `; ${hint}` : ''}.`,
  );
}
