/**
 * Model values built in code rather than read (the audit certificate's pages, tests): every
 * required field at its plain value, as a run or paragraph with no formatting would have it.
 */
import type { RunProperties } from './document';

/** Run properties in `font` at `size` points and nothing else: not bold, not struck, on the baseline. */
export function plainRunProperties(
  base: { font: string; size: number },
  overrides: Partial<RunProperties> = {},
): RunProperties {
  return {
    font: base.font,
    size: base.size,
    bold: false,
    italic: false,
    strike: false,
    doubleStrike: false,
    caps: false,
    smallCaps: false,
    verticalAlign: 'baseline',
    characterSpacing: 0,
    position: 0,
    hidden: false,
    ...overrides,
  };
}
