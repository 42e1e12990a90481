import ipaddr from 'ipaddr.js';
import { ApiError } from '../../errors';

/**
 * Keeps `document.url` (and every redirect hop) away from the service's own surroundings: no
 * loopback, private, link-local or otherwise special address, and no host name that only means
 * something on a local network (server-side request forgery).
 *
 * Workers cannot resolve DNS, so a public-looking name that resolves to a private address is not
 * caught here; Cloudflare's egress refuses such connections in production. This guard stops what
 * can be known from the URL alone: the scheme, credentials, IP literals and reserved names.
 */

export interface FetchTargetOptions {
  /** Plain http: is accepted only for local development (ALLOW_HTTP_URLS=true). */
  allowHttp: boolean;
  /** How messages name the URL; a redirect hop is named differently from the URL the caller sent. */
  subject?: string;
}

/** Throws ApiError DOCUMENT_FETCH_FAILED, saying why, when `url` must not be fetched. */
export function checkFetchTarget(url: URL, options: FetchTargetOptions): void {
  const reason = describeRefusal(url, options.allowHttp);
  if (reason === undefined) return;
  const allowed = options.allowHttp ? 'public http and https URLs' : 'public https URLs';
  throw new ApiError(
    'DOCUMENT_FETCH_FAILED',
    `${options.subject ?? 'document.url'} ${reason}; only ${allowed} are fetched.`,
  );
}

/**
 * Why `url` is refused, as a phrase that follows the URL's name ("points to a loopback address
 * (127.0.0.1)"), or undefined when it may be fetched. Pure, so other URL inputs can reuse it.
 */
export function describeRefusal(url: URL, allowHttp: boolean): string | undefined {
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    if (url.protocol === 'http:') {
      return 'uses plain http:, which is refused (it is allowed only when ALLOW_HTTP_URLS=true, for local development); use https:';
    }
    return `uses the ${url.protocol} scheme, which is never fetched`;
  }
  if (url.username !== '' || url.password !== '') {
    // Credentials in a URL end up in logs and are replayed to every redirect target; RFC 3986 §3.2.1
    // deprecates them. The URL is not repeated in the message for the same reason.
    return 'contains a user name or password, which is refused; use a link that needs no credentials (for example a pre-signed URL)';
  }
  const address = parseIpLiteral(url.hostname);
  if (address) return describeAddressRefusal(address);
  return describeNameRefusal(url.hostname);
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * The WHATWG URL parser has already turned every IPv4 spelling (`0x7f.1`, `2130706433`, `127.1`,
 * `0177.0.0.1`) into a dotted quad, and an IPv6 host into a compressed form in brackets, so only
 * those two shapes need parsing here.
 */
function parseIpLiteral(hostname: string): Address | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) {
    const inner = hostname.slice(1, -1);
    return ipaddr.IPv6.isValid(inner) ? ipaddr.IPv6.parse(inner) : undefined;
  }
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? ipaddr.IPv4.parse(hostname) : undefined;
}

/**
 * What each non-public range of ipaddr.js is, for the message: the kind of address, and an
 * optional clause that follows the address. A range missing here is named by its ipaddr.js name.
 */
type RangeText = readonly [what: string, after?: string];

const IPV4_RANGES: Record<string, RangeText> = {
  unspecified: ['an unspecified address'],
  broadcast: ['the broadcast address'],
  multicast: ['a multicast address'],
  linkLocal: ['a link-local address', 'where cloud metadata services live'],
  loopback: ['a loopback address'],
  carrierGradeNat: ['a carrier-grade NAT address', 'which is not reachable from the internet (RFC 6598)'],
  private: ['a private network address'],
  reserved: ['a reserved or documentation address'],
  benchmarking: ['a benchmarking address'],
};

const EMBEDS_IPV4 = 'which embeds an IPv4 address; use a host name instead';

const IPV6_RANGES: Record<string, RangeText> = {
  unspecified: ['the unspecified address'],
  linkLocal: ['a link-local address'],
  multicast: ['a multicast address'],
  loopback: ['a loopback address'],
  uniqueLocal: ['a unique local address', 'a private IPv6 range (RFC 4193)'],
  deprecatedSiteLocal: ['a site-local address'],
  reserved: ['a reserved or documentation address'],
  discard: ['a discard-only address'],
  // Forms that carry an IPv4 address inside. The embedded address could be anything, so they are
  // refused outright rather than unwrapped and judged.
  ipv4Mapped: ['an IPv4-mapped IPv6 address', EMBEDS_IPV4],
  rfc6145: ['an IPv4-translated IPv6 address', EMBEDS_IPV4],
  rfc6052: ['a NAT64 address (RFC 6052)', EMBEDS_IPV4],
  '6to4': ['a 6to4 address (RFC 3056)', EMBEDS_IPV4],
  teredo: ['a Teredo address (RFC 4380)', EMBEDS_IPV4],
};

const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

function describeAddressRefusal(address: Address): string | undefined {
  const shown = address.kind() === 'ipv6' ? `[${address.toString()}]` : address.toString();
  const phrase = ([what, after]: RangeText) => `points to ${what} (${shown})${after ? `, ${after}` : ''}`;
  const range = address.range();
  if (range !== 'unicast') {
    const table = address.kind() === 'ipv6' ? IPV6_RANGES : IPV4_RANGES;
    return phrase(table[range] ?? [`a special-purpose address (${range})`]);
  }
  if (address.kind() === 'ipv6') {
    // ipaddr.js calls these 'unicast', but ::a.b.c.d is the deprecated IPv4-compatible form
    // (RFC 4291 §2.5.5.1), and only 2000::/3 is allocated for global unicast (RFC 4291 §2.4).
    if (address.match(IPV4_COMPATIBLE)) return phrase(['an IPv4-compatible IPv6 address', EMBEDS_IPV4]);
    if (!address.match(GLOBAL_UNICAST)) {
      return phrase(['an IPv6 address', 'outside the global unicast range 2000::/3']);
    }
  }
  return undefined;
}

function describeNameRefusal(hostname: string): string | undefined {
  // One trailing dot makes a name fully qualified ("localhost." is still localhost).
  const name = (hostname.endsWith('.') ? hostname.slice(0, -1) : hostname).toLowerCase();
  const shown = `(${name})`;
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return `points to localhost ${shown}, which RFC 6761 reserves for the local machine`;
  }
  if (name.endsWith('.local')) {
    return `points to a .local name ${shown}, which is multicast DNS on a local network (RFC 6762)`;
  }
  if (name === 'internal' || name.endsWith('.internal')) {
    return `points to a .internal name ${shown}, which is reserved for private networks`;
  }
  if (name === 'home.arpa' || name.endsWith('.home.arpa')) {
    return `points to a .home.arpa name ${shown}, which is reserved for home networks (RFC 8375)`;
  }
  if (!name.includes('.')) {
    return `points to a single-label host name ${shown}, which only resolves inside a local network; use a fully qualified name`;
  }
  return undefined;
}
