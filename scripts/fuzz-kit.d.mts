/** A PRNG seeded with (seed, index) alone (scripts/fuzz-kit.mjs). */
export interface Rng {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [min, max]. */
  range(min: number, max: number): number;
  pick<T>(list: readonly T[]): T;
  bytes(n: number): Uint8Array;
}

export function rngFor(seed: number, index: number): Rng;
export function pickWeighted<T extends { weight: number }>(rng: Rng, list: readonly T[]): T;
export function concatBytes(...parts: Uint8Array[]): Uint8Array;
export function spliceBytes(bytes: Uint8Array, start: number, end: number, middle: Uint8Array): Uint8Array;
export function flipBytes(
  rng: Rng,
  bytes: Uint8Array,
  n: number,
  span?: [number, number],
): { bytes: Uint8Array; at: number[] };
/** Bytes as Latin-1 text, one character a byte. */
export function latin1(bytes: Uint8Array): string;
/** Latin-1 text as bytes (the low byte of each character). */
export function fromLatin1(text: string): Uint8Array;
export function positions(at: number[]): string;
