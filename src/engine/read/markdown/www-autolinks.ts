import type { MarkdownIt } from 'markdown-it';

/**
 * GFM's extended `www.` autolink (GFM spec §6.9 "Autolinks (extension)"): linkify-it 6 links
 * `http(s)://`, `ftp://`, `mailto:` and bare e-mail addresses but, with `fuzzyLink` off, not
 * `www.example.com`. Turning `fuzzyLink` on would also link every `README.md` and `index.js`
 * (two-letter country domains), which GFM does not, so only the `www.` form is added here.
 *
 * The match follows §6.9: a valid domain (segments of letters, digits, `_` and `-` separated by
 * periods, no `_` in the last two segments), then a path up to whitespace or `<`, minus trailing
 * punctuation `?!.,:*_~`, an unbalanced trailing `)` and a trailing entity-like `&name;`.
 * The link's scheme is http, as in GFM.
 */
const TRAILING_PUNCTUATION = '?!.,:*_~';
/** Entity names are short; looking at the last few characters keeps the check constant-time. */
const TRAILING_ENTITY = /&[A-Za-z0-9]{1,32};$/;

export function wwwAutolinks(md: MarkdownIt): void {
  md.linkify.add('www.', {
    validate: (text: string, pos: number) => wwwLinkLength(text, pos),
    normalize: (match: { url: string }) => {
      match.url = `http://${match.url}`;
    },
  });
}

/** Length of the link after `www.` at `pos`, or 0 when there is none. */
export function wwwLinkLength(text: string, pos: number): number {
  // Sticky expressions made per call: their lastIndex is state, which a module constant would share.
  const domainPattern = /[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*/uy;
  const pathPattern = /[^\s<]*/y;
  domainPattern.lastIndex = pos;
  const domain = domainPattern.exec(text);
  if (!domain) return 0;
  // "www." itself is the first segment, so one more segment is enough for the required period.
  if (
    domain[0]
      .split('.')
      .slice(-2)
      .some((s) => s.includes('_'))
  )
    return 0;
  pathPattern.lastIndex = pos + domain[0].length;
  const link = domain[0] + (pathPattern.exec(text)?.[0] ?? '');
  return trimmedLength(link, domain[0].length);
}

/** §6.9 "extended autolink path validation", walking back from the end once. */
function trimmedLength(link: string, minimum: number): number {
  let end = link.length;
  let unmatchedCloses = count(link, ')') - count(link, '(');
  while (end > minimum) {
    const last = link[end - 1] as string;
    if (TRAILING_PUNCTUATION.includes(last)) {
      end--;
    } else if (last === ')' && unmatchedCloses > 0) {
      end--;
      unmatchedCloses--;
    } else if (last === ';') {
      const entity = TRAILING_ENTITY.exec(link.slice(Math.max(0, end - 40), end));
      if (!entity) break;
      end -= entity[0].length;
    } else {
      break;
    }
  }
  return end;
}

function count(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}
