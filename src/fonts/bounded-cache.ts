/**
 * A least-recently-used map with a fixed capacity: the one kind of cache the font stage keeps
 * (parsed faces per isolate, widths per face). Map iteration follows insertion order, so the
 * first key is the least recently used once every hit re-inserts its key.
 */
export class BoundedCache<K, V> {
  readonly capacity: number;
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be ≥ 1, got ${capacity}`);
    this.capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Keys from least to most recently used (for tests and diagnostics). */
  keys(): K[] {
    return [...this.#entries.keys()];
  }
}
