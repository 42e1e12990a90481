/**
 * Shares equal property objects within one conversion. A document's runs and paragraphs repeat a
 * handful of distinct formattings (the largest corpus document: 13 649 run-property objects, 58
 * distinct), so the model keeps one frozen object per distinct value instead of one per run: less
 * to allocate, promote and trace. One interner per StyleCascade, which lives as long as the
 * conversion's read context; nothing downstream writes into properties (the objects are frozen,
 * so a write would throw in strict-mode code).
 */
export class PropertyInterner {
  private readonly shared = new Map<string, object>();

  /** The shared, deeply frozen object equal to `value` (the same keys in the same order). */
  intern<T extends object>(value: T): T {
    const key = JSON.stringify(value, keyReplacer);
    const existing = this.shared.get(key);
    if (existing !== undefined) return existing as T;
    deepFreeze(value);
    this.shared.set(key, value);
    return value;
  }
}

/** JSON leaves out undefined and turns -0, NaN and ±Infinity into 0 or null; keep them apart. */
function keyReplacer(_key: string, value: unknown): unknown {
  if (value === undefined) return '\u0000undefined';
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0)))
    return `\u0000${Object.is(value, -0) ? '-0' : String(value)}`;
  return value;
}

function deepFreeze(value: object): void {
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null) deepFreeze(inner);
}
