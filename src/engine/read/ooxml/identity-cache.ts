/**
 * What was worked out from an object, kept by the object itself (its identity, not its content).
 * The scanner shares repeated property elements (xml-tree.ts shareElements), so keyed by those
 * elements, or by what is cached from them, a large document's thousands of runs and paragraphs
 * come down to a few hundred entries. Bounded: past `limit` keys no new one is kept (still
 * correct, only slower), and a key already kept may always be updated.
 */
export class IdentityCache<K extends object, V> {
  private readonly entries = new Map<K, V>();
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    if (this.entries.size < this.limit || this.entries.has(key)) this.entries.set(key, value);
  }
}
