/**
 * Which bundled family stands in for a family a document names (docs/engine.md "Fonts"). Metric-
 * compatible pairs come first: those reproduce Word's line breaks. Everything else gets the
 * closest design class, which keeps the page looking right but not breaking identically.
 */
import { type BundledFamily, FAMILY_CLASS, type FontClass } from './bundled-fonts';

export interface Substitution {
  family: BundledFamily;
  /** 'metric': same advance widths as the named font; 'similar': a listed look-alike; 'guess': by name. */
  match: 'metric' | 'similar' | 'guess';
}

const METRIC: Record<string, BundledFamily> = {
  calibri: 'Carlito',
  carlito: 'Carlito',
  cambria: 'Caladea',
  caladea: 'Caladea',
  arial: 'Liberation Sans',
  helvetica: 'Liberation Sans',
  arimo: 'Liberation Sans',
  'liberation sans': 'Liberation Sans',
  'times new roman': 'Liberation Serif',
  times: 'Liberation Serif',
  tinos: 'Liberation Serif',
  'liberation serif': 'Liberation Serif',
  'courier new': 'Liberation Mono',
  courier: 'Liberation Mono',
  cousine: 'Liberation Mono',
  'liberation mono': 'Liberation Mono',
};

/**
 * Look-alikes without an open metric-compatible face. Line breaks will differ from Word's.
 * - Aptos (Word's default since 2023) has no open metric-compatible face. docs/engine.md would have
 *   layout use Aptos's own advance widths, but those are not available here (the font is
 *   proprietary; no copy or width table is on this machine), so Aptos is measured and drawn with
 *   Carlito, the face of Calibri, which Aptos replaced. Aptos sets wider than Calibri, so lines
 *   hold a little more text than in Word until real Aptos widths are added.
 * - Calibri Light and Cambria Math share their family's design but not exactly its widths.
 * - Symbol and the Wingdings family have no open equivalent. Readers should map their private-use
 *   code points to Unicode; whatever the substitute lacks then goes through glyph fallback.
 */
const SIMILAR: Record<string, BundledFamily> = {
  'calibri light': 'Carlito',
  aptos: 'Carlito',
  'aptos display': 'Carlito',
  'aptos narrow': 'Carlito',
  'aptos light': 'Carlito',
  candara: 'Carlito',
  corbel: 'Carlito',
  'cambria math': 'Caladea',
  constantia: 'Caladea',
  'segoe ui': 'Liberation Sans',
  'segoe ui light': 'Liberation Sans',
  'segoe ui semibold': 'Liberation Sans',
  tahoma: 'Liberation Sans',
  verdana: 'Liberation Sans',
  'arial narrow': 'Liberation Sans',
  'arial black': 'Liberation Sans',
  'trebuchet ms': 'Liberation Sans',
  'century gothic': 'Liberation Sans',
  'gill sans mt': 'Liberation Sans',
  'franklin gothic book': 'Liberation Sans',
  'helvetica neue': 'Liberation Sans',
  'microsoft sans serif': 'Liberation Sans',
  wingdings: 'Liberation Sans',
  'wingdings 2': 'Liberation Sans',
  'wingdings 3': 'Liberation Sans',
  webdings: 'Liberation Sans',
  georgia: 'Liberation Serif',
  garamond: 'Liberation Serif',
  'book antiqua': 'Liberation Serif',
  palatino: 'Liberation Serif',
  'palatino linotype': 'Liberation Serif',
  'bookman old style': 'Liberation Serif',
  'century schoolbook': 'Liberation Serif',
  symbol: 'Liberation Serif',
  // Handwriting: text signatures (src/services/annotate/signature-text.ts) ask for Segoe Script.
  'segoe script': 'Dancing Script',
  'brush script mt': 'Dancing Script',
  'dancing script': 'Dancing Script',
  consolas: 'Liberation Mono',
  menlo: 'Liberation Mono',
  monaco: 'Liberation Mono',
  'lucida console': 'Liberation Mono',
};

const CLASS_FAMILY: Record<FontClass, Exclude<BundledFamily, 'Dancing Script'>> = {
  sans: 'Liberation Sans',
  serif: 'Liberation Serif',
  mono: 'Liberation Mono',
};

/** Checked in this order: "DejaVu Sans Mono" is mono, "Microsoft Sans Serif" is sans. */
const NAME_HINTS: readonly [FontClass, RegExp][] = [
  ['mono', /mono|courier|consol|typewriter|\bcode\b|\bfixed\b/],
  ['sans', /sans|gothic|grotesk|grotesque|arial|helvetica|\bui\b/],
  [
    'serif',
    /serif|roman|times|garamond|antiqua|baskerville|bodoni|caslon|bookman|didot|minion|mincho|\bsong\b|\bming\b/,
  ],
];

/**
 * Unknown names with no hint get Liberation Sans. Word itself picks a substitute from the font
 * table's panose and w:family, which the model does not carry; by name alone, a sans is the safer
 * guess for modern documents (brand and UI faces), and Liberation Sans (Arial's widths) sits
 * between Carlito's narrow and the serifs' set widths.
 */
const UNKNOWN_CLASS: FontClass = 'sans';

export function normalizeFamilyName(name: string): string {
  return name
    .trim()
    .replace(/^["']|["']$/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

export function substituteFamily(name: string): Substitution {
  const key = normalizeFamilyName(name);
  const metric = METRIC[key];
  if (metric) return { family: metric, match: 'metric' };
  const similar = SIMILAR[key];
  if (similar) return { family: similar, match: 'similar' };
  const hinted = NAME_HINTS.find(([, pattern]) => pattern.test(key));
  return { family: CLASS_FAMILY[hinted ? hinted[0] : UNKNOWN_CLASS], match: 'guess' };
}

/**
 * Bundled families to try, in order, for a glyph the face lacks: the family itself, the Liberation
 * face of its class, then Carlito. Liberation adds the no-break space, combining marks, Hebrew and
 * more that Carlito lacks; Carlito adds the Thai baht and superscript signs that Liberation lacks.
 * Measured over the Regular faces, these chains miss nothing any bundled face has but for two
 * private-use glyphs and, from serif and mono chains, seven astrological signs only Liberation
 * Sans draws: not worth loading a fourth face for every style.
 */
export function fallbackFamilies(family: BundledFamily): BundledFamily[] {
  return [...new Set<BundledFamily>([family, CLASS_FAMILY[FAMILY_CLASS[family]], 'Carlito'])];
}
