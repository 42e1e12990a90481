/**
 * A map with a fixed capacity that forgets what was used least recently: the one kind of cache the
 * font stage keeps (parsed faces per isolate, widths per face). Map iteration follows insertion
 * order, so the first key is the one to evict once hits re-insert their keys.
 *
 * A hit re-inserts its key only when the entry has aged by half the capacity (counted in
 * insertions) since it was last put at the recent end: the word-width caches are read millions of
 * times per document, and deleting and re-adding a key on every hit made the Map itself (its
 * deleted slots, its rehashing) a measurable share of layout. An entry read at least once per half
 * capacity of insertions therefore still stays; the order is least recently used to within that.
 */
interface Slot<V> {
  value: V;
  /** The insertion count when the key was last put at the recent end. */
  placed: number;
}

export class BoundedCache<K, V> {
  readonly capacity: number;
  readonly #entries = new Map<K, Slot<V>>();
  readonly #refreshAge: number;
  #insertions = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be ≥ 1, got ${capacity}`);
    this.capacity = capacity;
    this.#refreshAge = Math.max(1, capacity >> 1);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const slot = this.#entries.get(key);
    if (slot === undefined) return undefined;
    if (this.#insertions - slot.placed >= this.#refreshAge) {
      this.#entries.delete(key);
      this.#entries.set(key, slot);
      slot.placed = this.#insertions;
    }
    return slot.value;
  }

  set(key: K, value: V): void {
    this.#insertions++;
    this.#entries.delete(key);
    this.#entries.set(key, { value, placed: this.#insertions });
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

  /** Keys from least to most recently placed (for tests and diagnostics). */
  keys(): K[] {
    return [...this.#entries.keys()];
  }
}
