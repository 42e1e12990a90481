/**
 * Which Noto fallback face has which characters, known without opening the faces: coverage.json,
 * written beside them by scripts/fallback-fonts.mjs (about 70 kB against 60 MB of faces). With it
 * a conversion loads, for every character its text has that no face of its own draws, the face
 * that has it, and only that face (planFallbackFiles): a Simplified Chinese character in a run of
 * Traditional Chinese takes Noto Sans SC, which a CJK face per run would have missed, and a
 * character none of the faces has loads nothing at all.
 */
import { bundledFontUrl } from './bundled-fonts';
import {
  type EastAsianVariant,
  type FallbackFaceRequest,
  fallbackCandidates,
  fallbackFileName,
  fallbackFontUrlPath,
  fallbackScriptOf,
} from './fallback-faces';

/** The characters each fallback file has, and its size. */
export interface FallbackCoverage {
  /** True when the file's cmap maps `cp`; false for a file the index does not know. */
  has(fileName: string, cp: number): boolean;
  /** The file's size in bytes, or undefined for a file the index does not know. */
  bytes(fileName: string): number | undefined;
}

interface CoverageFile {
  bytes: number;
  /** Range starts and ends (inclusive), ascending. */
  starts: Int32Array;
  ends: Int32Array;
}

interface CoverageJson {
  version: number;
  files: Record<string, { bytes: number; ranges?: number[]; sameAs?: string }>;
}

/** Reads coverage.json's delta-coded ranges; undefined when it is not what the script writes. */
export function parseFallbackCoverage(json: unknown): FallbackCoverage | undefined {
  const data = json as CoverageJson;
  if (data?.version !== 1 || typeof data.files !== 'object' || data.files === null) return undefined;
  const files = new Map<string, CoverageFile>();
  const decoded = new Map<string, Pick<CoverageFile, 'starts' | 'ends'>>();
  for (const [name, entry] of Object.entries(data.files)) {
    if (!Array.isArray(entry.ranges)) continue;
    const count = entry.ranges.length >> 1;
    const starts = new Int32Array(count);
    const ends = new Int32Array(count);
    let end = -1;
    for (let i = 0; i < count; i++) {
      const start = end + 1 + (entry.ranges[2 * i] as number);
      end = start + (entry.ranges[2 * i + 1] as number);
      starts[i] = start;
      ends[i] = end;
    }
    decoded.set(name, { starts, ends });
  }
  for (const [name, entry] of Object.entries(data.files)) {
    const ranges = decoded.get(entry.sameAs ?? name);
    if (ranges && typeof entry.bytes === 'number') files.set(name, { bytes: entry.bytes, ...ranges });
  }
  return {
    has(fileName, cp) {
      const file = files.get(fileName);
      if (!file) return false;
      // The last range starting at or before cp.
      let low = 0;
      let high = file.starts.length - 1;
      while (low <= high) {
        const mid = (low + high) >> 1;
        if ((file.starts[mid] as number) <= cp) low = mid + 1;
        else high = mid - 1;
      }
      return high >= 0 && cp <= (file.ends[high] as number);
    },
    bytes: (fileName) => files.get(fileName)?.bytes,
  };
}

/** The index per assets binding, read once per isolate (a failed read is asked again next time). */
const indexes = new WeakMap<Fetcher, Promise<FallbackCoverage | undefined>>();

/** The coverage index of the fallback faces, or undefined when it cannot be read. */
export function loadFallbackCoverage(assets: Fetcher): Promise<FallbackCoverage | undefined> {
  let loading = indexes.get(assets);
  if (!loading) {
    loading = fetchCoverage(assets);
    indexes.set(assets, loading);
    loading.then((index) => {
      if (!index && indexes.get(assets) === loading) indexes.delete(assets);
    });
  }
  return loading;
}

async function fetchCoverage(assets: Fetcher): Promise<FallbackCoverage | undefined> {
  try {
    const response = await assets.fetch(bundledFontUrl(fallbackFontUrlPath('coverage.json')));
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return parseFallbackCoverage(await response.json());
  } catch {
    return undefined;
  }
}

/**
 * A set of code points as a bitmap in pages of 4,096, made on first use: a document's characters
 * from U+0590 up, by the run's East Asian variant and weight (font-requests.ts). At most 139 kB
 * however many characters the text has; a page of CJK text fills a handful of pages.
 */
export class CodePointSet {
  readonly #pages: (Uint8Array | undefined)[] = [];

  add(cp: number): void {
    let page = this.#pages[cp >> 12];
    if (!page) {
      page = new Uint8Array(512);
      this.#pages[cp >> 12] = page;
    }
    page[(cp & 0xfff) >> 3] = (page[(cp & 0xfff) >> 3] as number) | (1 << (cp & 7));
  }

  has(cp: number): boolean {
    const page = this.#pages[cp >> 12];
    return page !== undefined && ((page[(cp & 0xfff) >> 3] as number) & (1 << (cp & 7))) !== 0;
  }

  /** The code points, ascending. */
  *[Symbol.iterator](): IterableIterator<number> {
    for (let p = 0; p < this.#pages.length; p++) {
      const page = this.#pages[p];
      if (!page) continue;
      for (let byte = 0; byte < 512; byte++) {
        const bits = page[byte] as number;
        if (bits === 0) continue;
        for (let bit = 0; bit < 8; bit++) if (bits & (1 << bit)) yield (p << 12) | (byte << 3) | bit;
      }
    }
  }
}

/** Characters from U+0590 up in runs of one East Asian variant and weight. */
export interface FallbackCharacters {
  variant: EastAsianVariant;
  bold: boolean;
  codePoints: Iterable<number>;
}

/**
 * The fallback faces (script and weight) a document's characters need, within
 * `budget` bytes (FALLBACK_FONT_BYTES_PER_CONVERSION). A character of a script (fallbackScriptOf)
 * takes its script's face when that face has it; any other, its first candidate face that has it
 * (fallbackCandidates), a face already chosen before one that is not. A character of no script is
 * left out when `drawnElsewhere` (a bundled or embedded face has it). A character only faces past
 * the budget have is left to layout, which draws it in the other weight's face if that was chosen
 * (FontSet.fallback), else as .notdef, named in a warning.
 */
export function planFallbackFiles(
  groups: readonly FallbackCharacters[],
  coverage: FallbackCoverage,
  drawnElsewhere: (cp: number) => boolean,
  budget: number,
): FallbackFaceRequest[] {
  const chosen = new Map<string, FallbackFaceRequest>();
  let spent = 0;
  const choose = (file: string, face: FallbackFaceRequest): boolean => {
    if (chosen.has(file)) return true;
    const bytes = coverage.bytes(file) ?? 0;
    if (spent + bytes > budget) return false;
    chosen.set(file, face);
    spent += bytes;
    return true;
  };
  const pending: [number, FallbackCharacters][] = [];
  for (const group of groups) {
    for (const cp of group.codePoints) {
      const script = fallbackScriptOf(cp, group.variant);
      if (script === undefined) {
        if (!drawnElsewhere(cp)) pending.push([cp, group]);
        continue;
      }
      const file = fallbackFileName(script, group.bold);
      if (!(coverage.has(file, cp) && choose(file, { script, bold: group.bold }))) pending.push([cp, group]);
    }
  }
  for (const [cp, { variant, bold }] of pending) {
    const scripts = fallbackCandidates(cp, variant);
    if (
      scripts.some(
        (script) => chosen.has(fallbackFileName(script, bold)) && coverage.has(fallbackFileName(script, bold), cp),
      )
    )
      continue;
    for (const script of scripts) {
      const file = fallbackFileName(script, bold);
      if (coverage.has(file, cp) && choose(file, { script, bold })) break;
    }
  }
  return [...chosen.values()];
}
