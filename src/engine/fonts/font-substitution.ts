/**
 * Which bundled family stands in for a family a document names (docs/engine.md "Fonts"). Metric-
 * compatible pairs come first: those reproduce Word's line breaks. Everything else gets the
 * closest design class, which keeps the page looking right but not breaking identically.
 */
import type { DeclaredFont } from '../model';
import { type BundledFamily, FAMILY_CLASS, type FontClass } from './bundled-fonts';

export interface Substitution {
  family: BundledFamily;
  /** 'metric': same advance widths as the named font; 'similar': a listed look-alike; 'guess': by name. */
  match: 'metric' | 'similar' | 'guess';
  /**
   * For a look-alike measured with the named font's widths: the factor its advances are scaled by
   * (FontkitFace.widthScaled) so that its average Latin width is the named font's (STAND_INS).
   */
  widthScale?: number;
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
  // Gelasio was drawn to Georgia's advance widths (its designer's statement; the frequency-weighted
  // Latin averages agree to 0.02%). Georgia's line height is word-line-metrics.ts's.
  georgia: 'Gelasio',
  gelasio: 'Gelasio',
  // The open families themselves, when a document names them.
  'open sans': 'Open Sans',
  roboto: 'Roboto',
  lato: 'Lato',
  montserrat: 'Montserrat',
  poppins: 'Poppins',
  inter: 'Inter',
  raleway: 'Raleway',
  merriweather: 'Merriweather',
  'pt sans': 'PT Sans',
  'pt serif': 'PT Serif',
  'noto sans': 'Noto Sans',
  'noto serif': 'Noto Serif',
  'source code pro': 'Source Code Pro',
  'archivo black': 'Archivo Black',
  'dejavu sans': 'DejaVu Sans',
  'dejavu sans condensed': 'DejaVu Sans Condensed',
};

/**
 * Word fonts with no open metric-compatible face, drawn with the closest open design and measured
 * with their own average width: the stand-in's advances are scaled by the ratio of the two fonts'
 * frequency-weighted average Latin widths (capsize's xWidthAvg, the same weighting on both sides;
 * OS/2 xAvgCharWidth is not comparable across table versions). Line lengths then match Word's on
 * average, and the line height is the Word font's own (word-line-metrics.ts). Each figure, its
 * source and the design reasons are in docs/fonts.md.
 */
const STAND_INS: Record<string, { family: BundledFamily; widthScale: number }> = {
  // Verdana 1049/2048 (capsize; Word's embedded subsets agree) against DejaVu Sans 0.5084 em:
  // DejaVu is Bitstream Vera, Verdana's design sibling.
  verdana: { family: 'DejaVu Sans', widthScale: 1.0075 },
  // Tahoma 917/2048 is Verdana narrowed; DejaVu Sans Condensed (0.4573 em) is Vera narrowed.
  tahoma: { family: 'DejaVu Sans Condensed', widthScale: 0.979 },
  // Segoe UI 908/2048, x-height 0.500 and cap height 0.700 em: PT Sans has the same heights.
  'segoe ui': { family: 'PT Sans', widthScale: 1.028 },
  'segoe ui light': { family: 'PT Sans', widthScale: 1.028 },
  'segoe ui semibold': { family: 'PT Sans', widthScale: 1.028 },
  // Trebuchet MS 934/2048, a humanist sans: Open Sans 1.10 (0.4690 em).
  'trebuchet ms': { family: 'Open Sans', widthScale: 0.972 },
  // Aptos: no published width figures were found (proprietary; no PDF of the corpora embeds it),
  // so the scale is measured from Word's own layout. Word's page starts in the corpus' four Aptos
  // documents of ten pages each fall mid-paragraph, each at a line start: with Carlito scaled by
  // 1.05 to 1.06 all ten are a line start here too, at 1.04 one, at 1.07 four (docs/fonts.md).
  aptos: { family: 'Carlito', widthScale: 1.055 },
  // Consolas: every advance 1126/2048 = 0.5498 em; Source Code Pro, a humanist monospace with
  // Consolas' x-height, sets 0.600 em.
  consolas: { family: 'Source Code Pro', widthScale: 0.9163 },
  // Calibri Light: Word's own embedded subsets set 2% narrower than Calibri (Carlito).
  'calibri light': { family: 'Carlito', widthScale: 0.98 },
  // Arial Narrow is Arial condensed to 82% (Liberation Sans Narrow's widths, which are Arial
  // Narrow's, are 0.82 of Liberation Sans').
  'arial narrow': { family: 'Liberation Sans', widthScale: 0.82 },
};

/**
 * Look-alikes without an open metric-compatible face. Line breaks will differ from Word's.
 * - Aptos's other cuts (Display, Narrow, Light) have no open metric-compatible face and no
 *   measured width: they are drawn and measured with Carlito, the face of Calibri, which Aptos
 *   replaced as Word's default (Aptos itself is a stand-in: STAND_INS).
 * - Calibri Light and Cambria Math share their family's design but not exactly its widths.
 * - Symbol and the Wingdings family have no open equivalent. Readers should map their private-use
 *   code points to Unicode; whatever the substitute lacks then goes through glyph fallback.
 */
const SIMILAR: Record<string, BundledFamily> = {
  'aptos display': 'Carlito',
  'aptos narrow': 'Carlito',
  'aptos light': 'Carlito',
  candara: 'Carlito',
  corbel: 'Carlito',
  'cambria math': 'Caladea',
  constantia: 'Caladea',
  // Archivo Black: a grotesque of one heavy weight, like Arial Black (no width figures found).
  'arial black': 'Archivo Black',
  'open sans light': 'Open Sans',
  'open sans semibold': 'Open Sans',
  'open sans extrabold': 'Open Sans',
  'century gothic': 'Liberation Sans',
  'gill sans mt': 'Liberation Sans',
  'franklin gothic book': 'Liberation Sans',
  'helvetica neue': 'Liberation Sans',
  'microsoft sans serif': 'Liberation Sans',
  wingdings: 'Liberation Sans',
  'wingdings 2': 'Liberation Sans',
  'wingdings 3': 'Liberation Sans',
  webdings: 'Liberation Sans',
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

/**
 * The design class the font table gives a font: fixed pitch (§17.18.69 ST_Pitch) is mono; else by
 * ST_FontFamily (§17.18.30): roman serif, swiss sans; modern is Word's fixed-pitch family, but
 * applications write it for proportional faces too (DIN, set "modern" with a variable pitch), so
 * it is mono only when the pitch does not say otherwise; script and decorative faces are drawn
 * with a sans. Undefined when the table says nothing of either.
 */
function declaredClass(declared: DeclaredFont): FontClass | undefined {
  if (declared.pitch === 'fixed') return 'mono';
  switch (declared.family) {
    case 'roman':
      return 'serif';
    case 'modern':
      return declared.pitch === 'variable' ? 'sans' : 'mono';
    case 'swiss':
    case 'script':
    case 'decorative':
      return 'sans';
    default:
      return undefined;
  }
}

/**
 * substituteFamily, with the document's font table (DocumentModel.declaredFonts) for a name it can
 * only guess: Word, lacking the font, tries its w:altName (the "inherit" of a web page pasted into
 * Word names Times New Roman there), then takes a face of the class the table gives it. An
 * alternate of another class than the table's own family and pitch is not taken: "Bremen Bd BT",
 * a proportional display face, names Courier New, whose fixed widths set its headings far wider
 * than the author's Word did.
 */
export function substituteDeclared(name: string, declared: DeclaredFont | undefined): Substitution {
  const own = substituteFamily(name);
  if (own.match !== 'guess' || declared === undefined) return own;
  const declaredAs = declaredClass(declared);
  if (declared.altName !== undefined) {
    const alternate = substituteFamily(declared.altName);
    if (alternate.match !== 'guess' && (declaredAs === undefined || FAMILY_CLASS[alternate.family] === declaredAs)) {
      return alternate;
    }
  }
  if (declaredAs !== undefined) return { family: CLASS_FAMILY[declaredAs], match: 'guess' };
  return own;
}

export function substituteFamily(name: string): Substitution {
  const key = normalizeFamilyName(name);
  const metric = METRIC[key];
  if (metric) return { family: metric, match: 'metric' };
  const standIn = STAND_INS[key];
  if (standIn) return { ...standIn, match: 'similar' };
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
