import { beforeAll, describe, expect, it } from 'vitest';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import type { SigningIdentity } from '../../../src/services/sign/sign-types';
import { appendUpdate, ascii, concat, makeOriginal, sign, testIdentity, text } from '../verify/verify-fixtures';

describe('findRevisions', () => {
  let identity: SigningIdentity;
  beforeAll(async () => {
    identity = await testIdentity();
  });

  it('a linearized file: the first-page section and the main one it leads to are one revision (§F.3)', () => {
    // The first-page trailer's startxref 0 ends no revision; the last startxref points back to the
    // first-page section, whose /Prev leads forward to the main section.
    const head = '%PDF-1.7\n';
    const lin = '1 0 obj\n<< /Linearized 1 >>\nendobj\n';
    const firstXrefAt = head.length + lin.length;
    const entry = (offset: number) => `${String(offset).padStart(10, '0')} 00000 n\r\n`;
    const objects = [
      '2 0 obj\n<< /Type /Catalog /Pages 3 0 R >>\nendobj\n',
      '3 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n',
    ];
    const firstSection = (mainAt: number) =>
      `xref\n1 1\n${entry(head.length)}trailer\n<< /Size 4 /Root 2 0 R /Prev ${mainAt} >>\nstartxref\n0\n%%EOF\n`;
    const provisional = firstSection(0);
    const bodyAt = firstXrefAt + provisional.length + 10; // room for the digits of /Prev
    const pad = ' '.repeat(bodyAt - firstXrefAt - provisional.length);
    const offsets = [bodyAt, bodyAt + (objects[0]?.length ?? 0)];
    const mainAt = bodyAt + objects.join('').length;
    const first = firstSection(mainAt);
    const main = `xref\n0 1\n0000000000 65535 f\r\n2 2\n${offsets.map(entry).join('')}trailer\n<< /Size 4 >>\nstartxref\n${firstXrefAt}\n%%EOF\n`;
    const padded = pad.slice(first.length - provisional.length);
    const pdf = ascii(head + lin + first + padded + objects.join('') + main);
    expect(text(pdf).indexOf('2 0 obj')).toBe(bodyAt);
    const { revisions, problems } = findRevisions(pdf);
    expect(problems).toEqual([]);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]?.root).toEqual({ num: 2, gen: 0 });
    expect([...(revisions[0]?.entries.keys() ?? [])].sort()).toEqual([0, 1, 2, 3]);
  });

  it('one revision with an xref table, ending at the end of the file', async () => {
    const pdf = await makeOriginal(false);
    const { revisions, problems } = findRevisions(pdf);
    expect(problems).toEqual([]);
    expect(revisions).toHaveLength(1);
    const [revision] = revisions;
    expect(revision?.end).toBe(pdf.length);
    expect(revision?.xrefKind).toBe('table');
    expect(revision?.xrefOffset).toBe(revision?.startxref);
    expect(revision?.prev).toBeUndefined();
    expect(revision?.root).toEqual({ num: expect.any(Number), gen: 0 });
    expect(revision?.encrypted).toBe(false);
    // pdf-lib ends the file right after %%EOF (§7.5.5 wants an EOL there): noted, not fatal.
    expect(revision?.problems).toEqual(['no end-of-line after the final %%EOF']);
    // Object 0 is the head of the free list; every other object has an offset that holds "n 0 obj".
    expect(revision?.entries.get(0)?.kind).toBe('free');
    for (const [num, entry] of revision?.entries ?? []) {
      if (entry.kind === 'offset') expect(text(pdf.subarray(entry.offset)).startsWith(`${num} 0 obj`)).toBe(true);
    }
  });

  it('an xref stream with PNG predictors, and compressed entries', async () => {
    const pdf = await makeOriginal(true);
    const { revisions, problems } = findRevisions(pdf);
    expect(problems).toEqual([]);
    expect(revisions).toHaveLength(1);
    const [revision] = revisions;
    expect(revision?.xrefKind).toBe('stream');
    expect(revision?.problems).toEqual(['no end-of-line after the final %%EOF']);
    expect(revision?.size).toBe(revision?.entries.size);
    const kinds = new Set([...(revision?.entries.values() ?? [])].map((entry) => entry.kind));
    expect(kinds).toContain('compressed');
    for (const [num, entry] of revision?.entries ?? []) {
      if (entry.kind === 'offset') expect(text(pdf.subarray(entry.offset)).startsWith(`${num} 0 obj`)).toBe(true);
    }
  });

  it('an incremental update by hand: two revisions, /Prev chained', async () => {
    const original = await makeOriginal(false);
    const updated = appendUpdate(original);
    const { revisions, problems } = findRevisions(updated);
    expect(problems).toEqual([]);
    expect(revisions.map((revision) => revision.eofEnd)).toEqual([original.length, updated.length - 1]);
    expect(revisions[1]?.end).toBe(updated.length);
    expect(revisions[1]?.prev).toBe(revisions[0]?.xrefOffset);
    expect(revisions[1]?.entries.size).toBe(1);
  });

  for (const objectStreams of [false, true]) {
    it(`signed twice (${objectStreams ? 'xref stream' : 'table'}): three revisions`, async () => {
      const original = await makeOriginal(objectStreams);
      const once = await sign(original, identity);
      const twice = await sign(once, identity);
      const { revisions, problems } = findRevisions(twice);
      expect(problems).toEqual([]);
      // pdf-lib's original has no EOL after %%EOF; the signer's updates end with one.
      expect(revisions.map((revision) => revision.eofEnd)[0]).toBe(original.length);
      expect(revisions.map((revision) => revision.end).slice(1)).toEqual([once.length, twice.length]);
      expect(revisions[0]?.xrefKind).toBe(objectStreams ? 'stream' : 'table');
      expect(revisions[2]?.prev).toBe(revisions[1]?.xrefOffset);
      expect(revisions[1]?.prev).toBe(revisions[0]?.xrefOffset);
      for (const revision of revisions.slice(0, 2)) expect(revision.problems).toEqual([]);
    });
  }

  it('garbage after the last %%EOF is a problem, not a revision', async () => {
    const pdf = concat(await makeOriginal(false), ascii('\n<html>garbage</html>\n'));
    const { revisions, problems } = findRevisions(pdf);
    expect(revisions).toHaveLength(1);
    expect(problems.join()).toMatch(/after the last %%EOF/);
  });

  it('a missing final newline and a startxref off by a few bytes are tolerated, with problems', async () => {
    const pdf = await makeOriginal(false);
    const source = text(pdf);
    const startxref = Number(/startxref\s+(\d+)/.exec(source)?.[1]);
    const damaged = ascii(source.replace(/startxref\s+\d+\s+%%EOF\s*$/, `startxref\n${startxref + 3}\n%%EOF`));
    const { revisions } = findRevisions(damaged);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]?.xrefOffset).toBe(startxref);
    expect(revisions[0]?.end).toBe(damaged.length);
    expect(revisions[0]?.problems.join()).toMatch(/off by -3/);
    expect(revisions[0]?.problems.join()).toMatch(/no end-of-line/);
  });

  it('a /Prev cycle is a problem, not a hang', async () => {
    const original = await makeOriginal(false);
    const once = appendUpdate(original);
    // The second update's /Prev points at its own xref section.
    const probe = appendUpdate(once);
    const ownXref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text(probe))?.[1]);
    const cyclic = appendUpdate(once, { prev: ownXref });
    const { revisions, problems } = findRevisions(cyclic);
    expect(revisions).toHaveLength(3);
    expect(problems.join()).toMatch(/\/Prev cycle/);
  });

  it('a truncated file: problems, no throw', async () => {
    const pdf = await makeOriginal(true);
    for (const length of [0, 10, pdf.length >> 1, pdf.length - 10]) {
      const { revisions, problems } = findRevisions(pdf.subarray(0, length));
      expect(revisions).toHaveLength(0);
      expect(problems.length).toBeGreaterThan(0);
    }
  });

  it('1,001 revisions stating one offset: capped at 1,000, each section read once, fast', async () => {
    const pdf = await makeOriginal(false);
    const startxref = Number(/startxref\s+(\d+)/.exec(text(pdf))?.[1]);
    const hostile = concat(pdf, ascii('\n'), ascii(`startxref\n${startxref}\n%%EOF\n`.repeat(1001)));
    const started = Date.now();
    const { revisions, problems } = findRevisions(hostile);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(revisions).toHaveLength(1000);
    expect(problems.join()).toMatch(/more than 1000 revisions/);
  });

  it('/Encrypt in a trailer is reported', async () => {
    const original = await makeOriginal(false);
    const source = text(appendUpdate(original));
    const encrypted = ascii(source.replace(/\/Prev (\d+) >>\nstartxref/, '/Prev $1 /Encrypt 99 0 R >>\nstartxref'));
    const { revisions } = findRevisions(encrypted);
    expect(revisions.map((revision) => revision.encrypted)).toEqual([false, true]);
  });
});
