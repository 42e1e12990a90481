/**
 * A map with a fixed capacity that forgets what was used least recently: the one kind of cache the
 * font stage keeps (parsed faces per isolate, widths per face).
 *
 * A hit moves its key to the recent end only when the entry has aged by half the capacity (counted
 * in insertions) since it was last put there: the word-width caches are read millions of times per
 * document. An entry read at least once per half capacity of insertions therefore still stays; the
 * order is least recently used to within that.
 *
 * The order is a queue of its own, not the Map's insertion order: finding a Map's first key walks
 * past every entry deleted since V8 last rehashed it, up to the capacity of them, so evicting
 * through `keys().next()` cost time in proportion to the capacity on every insertion into a full
 * cache (a 4,096-word width cache missing on most words of a long Arabic report). A moved or
 * removed entry leaves a gap in the queue that eviction steps over once; the queue is compacted
 * when gaps are most of it.
 *
 * Entries may also be weighed (weigh: the bytes of a parsed face, known once it has loaded): the
 * cache then also evicts the least recently used while their weights add up to more than
 * `maxWeight`. The Noto fallback faces are 0.03 to 10.5 MB each, so a count says little of memory.
 */
interface Slot<K, V> {
  key: K;
  value: V;
  /** The insertion count when the key was last put at the recent end. */
  placed: number;
  /** Its place in the queue (-1: no longer in the cache). */
  at: number;
  /** What weigh() said it weighs (0 until then). */
  weight: number;
}

export class BoundedCache<K, V> {
  readonly capacity: number;
  readonly maxWeight: number;
  readonly #entries = new Map<K, Slot<K, V>>();
  readonly #refreshAge: number;
  #insertions = 0;
  /** Slots from least to most recently placed, with gaps (undefined) where one left or moved on. */
  #queue: (Slot<K, V> | undefined)[] = [];
  /** Queue positions before this one are all gaps. */
  #head = 0;
  /** The weights of the entries, added up. */
  #weight = 0;

  constructor(capacity: number, maxWeight = Number.POSITIVE_INFINITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be ≥ 1, got ${capacity}`);
    if (!(maxWeight > 0)) throw new RangeError(`maxWeight must be > 0, got ${maxWeight}`);
    this.capacity = capacity;
    this.maxWeight = maxWeight;
    this.#refreshAge = Math.max(1, capacity >> 1);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The weights of the entries, added up. */
  get weight(): number {
    return this.#weight;
  }

  /**
   * Gives the entry of `key` (if any) its weight, then evicts the least recently used others while
   * the weights exceed maxWeight. An entry heavier than maxWeight alone stays until the next.
   */
  weigh(key: K, weight: number): void {
    const slot = this.#entries.get(key);
    if (slot === undefined) return;
    this.#weight += weight - slot.weight;
    slot.weight = weight;
    while (this.#weight > this.maxWeight) {
      const oldest = this.#oldest();
      if (oldest === slot) break;
      this.#evict(oldest);
    }
  }

  get(key: K): V | undefined {
    const slot = this.#entries.get(key);
    if (slot === undefined) return undefined;
    if (this.#insertions - slot.placed >= this.#refreshAge) {
      this.#queue[slot.at] = undefined;
      this.#enqueue(slot);
      slot.placed = this.#insertions;
    }
    return slot.value;
  }

  set(key: K, value: V): void {
    this.#insertions++;
    const known = this.#entries.get(key);
    if (known !== undefined) {
      this.#queue[known.at] = undefined;
      this.#weight -= known.weight;
    }
    const slot: Slot<K, V> = { key, value, placed: this.#insertions, at: -1, weight: 0 };
    this.#enqueue(slot);
    this.#entries.set(key, slot);
    if (this.#entries.size > this.capacity) this.#evict(this.#oldest());
  }

  delete(key: K): void {
    const slot = this.#entries.get(key);
    if (slot === undefined) return;
    this.#queue[slot.at] = undefined;
    slot.at = -1;
    this.#weight -= slot.weight;
    this.#entries.delete(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Keys from least to most recently placed (for tests and diagnostics). */
  keys(): K[] {
    const keys: K[] = [];
    for (let i = this.#head; i < this.#queue.length; i++) {
      const slot = this.#queue[i];
      if (slot !== undefined) keys.push(slot.key);
    }
    return keys;
  }

  /** The least recently placed entry (the cache is not empty). */
  #oldest(): Slot<K, V> {
    const queue = this.#queue;
    while (queue[this.#head] === undefined) this.#head++;
    return queue[this.#head] as Slot<K, V>;
  }

  #evict(slot: Slot<K, V>): void {
    this.#queue[slot.at] = undefined;
    slot.at = -1;
    this.#weight -= slot.weight;
    this.#entries.delete(slot.key);
  }

  /** Puts `slot` at the recent end, first closing the gaps when they outnumber the entries. */
  #enqueue(slot: Slot<K, V>): void {
    let queue = this.#queue;
    if (queue.length >= 2 * this.#entries.size + 16) {
      const live: Slot<K, V>[] = [];
      for (let i = this.#head; i < queue.length; i++) {
        const kept = queue[i];
        if (kept === undefined) continue;
        kept.at = live.length;
        live.push(kept);
      }
      queue = live;
      this.#queue = live;
      this.#head = 0;
    }
    slot.at = queue.length;
    queue.push(slot);
  }
}
