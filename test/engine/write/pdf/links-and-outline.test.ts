import { describe, expect, it } from 'vitest';
import type { OutlineEntry } from '../../../../src/engine/pages/display-list';
import { linkUri } from '../../../../src/engine/write/pdf/link-annotations';
import { countDescendants, nestOutline } from '../../../../src/engine/write/pdf/outline';
import { compareBytes, textStringBytes } from '../../../../src/engine/write/pdf/pdf-strings';

describe('linkUri', () => {
  it('keeps web, mail and phone links as ASCII', () => {
    expect(linkUri('https://example.com')).toBe('https://example.com/');
    expect(linkUri(' https://exämple.com/päth?q=ä ')).toBe('https://xn--exmple-cua.com/p%C3%A4th?q=%C3%A4');
    expect(linkUri('mailto:someone@example.com')).toBe('mailto:someone@example.com');
    expect(linkUri('tel:+441234567')).toBe('tel:+441234567');
    expect(linkUri('www.example.com/a')).toBe('http://www.example.com/a');
  });

  it('drops unsafe schemes and what does not parse', () => {
    expect(linkUri('javascript:alert(1)')).toBeUndefined();
    expect(linkUri('file:///etc/passwd')).toBeUndefined();
    expect(linkUri('data:text/html,hi')).toBeUndefined();
    expect(linkUri('relative/page.html')).toBeUndefined();
    expect(linkUri('')).toBeUndefined();
  });
});

describe('nestOutline', () => {
  const entry = (title: string, level: number): OutlineEntry => ({ title, level, page: 0, y: 0 });

  it('nests by level, a jump of levels under the nearest shallower entry', () => {
    const tree = nestOutline([entry('A', 0), entry('A.1', 1), entry('A.1.a', 3), entry('A.2', 1), entry('B', 0)]);
    const titles = (nodes: typeof tree): unknown[] =>
      nodes.map((n) => (n.children.length ? [n.entry.title, titles(n.children)] : n.entry.title));
    expect(titles(tree)).toEqual([['A', [['A.1', ['A.1.a']], 'A.2']], 'B']);
    expect(countDescendants(tree)).toBe(5);
  });

  it('keeps a document starting below level 0 at the top', () => {
    const tree = nestOutline([entry('x', 2), entry('y', 1)]);
    expect(tree.map((n) => n.entry.title)).toEqual(['x', 'y']);
  });
});

describe('name tree keys', () => {
  it('sort as bytes: ASCII as is, anything else as UTF-16BE after its BOM', () => {
    const keys = ['b', 'B', '_Toc1', 'ä', 'a'];
    const sorted = [...keys].sort((x, y) => compareBytes(textStringBytes(x), textStringBytes(y)));
    expect(sorted).toEqual(['B', '_Toc1', 'a', 'b', 'ä']);
  });
});
