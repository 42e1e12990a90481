import type { Rng } from './fuzz-kit.mjs';

/** A DOCX the fuzz starts from (scripts/docx-mutations.mjs). */
export interface DocxBase {
  name: string;
  bytes: Uint8Array;
  /** Its parts by name, or null when fflate cannot read the ZIP. */
  parts: Map<string, Uint8Array> | null;
}

export interface DocxVariant {
  index: number;
  /** The base's name. */
  base: string;
  bytes: Uint8Array;
  /** What was done, to reproduce and read. */
  mutation: string;
}

export function docxBase(name: string, bytes: Uint8Array): DocxBase;
export function makeDocxVariant(
  bases: readonly DocxBase[],
  seed: number,
  index: number,
  options?: { maxGrowth?: number },
): DocxVariant;
export function mutateDocx(
  rng: Rng,
  base: DocxBase,
  options?: { maxGrowth?: number },
): { bytes: Uint8Array; mutation: string };
export const MUTATION_NAMES: string[];
export const EXTREME_VALUES: string[];
