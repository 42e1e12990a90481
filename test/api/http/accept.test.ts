import { describe, expect, it } from 'vitest';
import { preferredMediaType } from '../../../src/api/http';

const JSON_TYPE = 'application/json';
const PDF = 'application/pdf';
const offered = [JSON_TYPE, PDF];

/** RFC 9110 §12.5.1: which representation an Accept header asks for, of those a route offers. */
describe('preferredMediaType (Accept)', () => {
  it('without Accept, or with nothing in it that is a media range, gives the first offered', () => {
    expect(preferredMediaType(undefined, offered)).toBe(JSON_TYPE);
    expect(preferredMediaType('', offered)).toBe(JSON_TYPE);
    expect(preferredMediaType('pdf, *', offered)).toBe(JSON_TYPE);
  });

  it('takes the highest weight, the route’s order breaking ties', () => {
    expect(preferredMediaType(PDF, offered)).toBe(PDF);
    expect(preferredMediaType('*/*', offered)).toBe(JSON_TYPE);
    expect(preferredMediaType('application/*', offered)).toBe(JSON_TYPE);
    expect(preferredMediaType(`${PDF}, ${JSON_TYPE}`, offered)).toBe(JSON_TYPE);
    expect(preferredMediaType(`${JSON_TYPE};q=0.8, ${PDF};q=0.9`, offered)).toBe(PDF);
    expect(preferredMediaType(`${JSON_TYPE};q=0.8,${PDF};q=0.80`, offered)).toBe(JSON_TYPE);
  });

  it('lets the most specific range decide a type’s weight, whatever its order', () => {
    // application/json is excluded although application/* and */* take it.
    expect(preferredMediaType(`${JSON_TYPE};q=0, application/*;q=0.5, */*`, offered)).toBe(PDF);
    expect(preferredMediaType(`*/*;q=0.1, ${PDF};q=0.2`, offered)).toBe(PDF);
    // Parameters make a range more specific, but are not compared: JSON with a charset is JSON.
    expect(preferredMediaType(`${JSON_TYPE}; charset=utf-8, ${PDF};q=0.5`, offered)).toBe(JSON_TYPE);
  });

  it('is case-insensitive and reads parameters with quoted commas and semicolons', () => {
    expect(preferredMediaType('Application/PDF;Q=1', offered)).toBe(PDF);
    expect(preferredMediaType(`${PDF}; profile="a,b;c"; q=0.7, ${JSON_TYPE};q=0.6`, offered)).toBe(PDF);
  });

  it('leaves out a range whose q is not a qvalue, and accepts nothing when every weight is 0', () => {
    expect(preferredMediaType(`${PDF};q=2, ${JSON_TYPE};q=0.1`, offered)).toBe(JSON_TYPE);
    expect(preferredMediaType(`${PDF};q=0, ${JSON_TYPE};q=0`, offered)).toBeUndefined();
    expect(preferredMediaType('text/html', offered)).toBeUndefined();
    expect(preferredMediaType('application/vnd.openxmlformats-officedocument.wordprocessingml.document', offered)).toBe(
      undefined,
    );
  });
});
