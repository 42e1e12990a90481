/**
 * Run properties for one document, cached by the run format's delta. The walk shares one RunDelta
 * object among all the text inside an element (format-context.ts: contexts are copied on change,
 * never mutated), so the DOCX cascade runs once per (delta, paragraph style, character style)
 * instead of once per text run.
 */
import type { RunProperties } from '../model/document';
import type { RunDelta } from '../ooxml/run-properties';
import type { StyleCascade } from '../ooxml/style-cascade';

export class RunStyles {
  readonly cascade: StyleCascade;
  /** Weak: a delta's entries go when the walk no longer holds it. */
  private readonly byDelta = new WeakMap<RunDelta, Map<string, RunProperties>>();

  constructor(cascade: StyleCascade) {
    this.cascade = cascade;
  }

  /** cascade.runProperties(undefined, paragraphStyleId, characterStyleId, delta), cached. */
  of(paragraphStyleId: string, characterStyleId: string | undefined, delta: RunDelta): RunProperties {
    let byStyles = this.byDelta.get(delta);
    if (!byStyles) {
      byStyles = new Map();
      this.byDelta.set(delta, byStyles);
    }
    const key = `${paragraphStyleId}\u0001${characterStyleId ?? ''}`;
    let properties = byStyles.get(key);
    if (!properties) {
      properties = this.cascade.runProperties(undefined, paragraphStyleId, characterStyleId, delta);
      byStyles.set(key, properties);
    }
    return properties;
  }
}
