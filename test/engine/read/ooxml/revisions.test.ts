import { describe, expect, it } from 'vitest';
import type { RevisionMode } from '../../../../src/engine/read/ooxml/read-context';
import { paragraphs, readParts, textInline, textOf, texts } from './model-queries';

const author = 'w:author="Ada" w:date="2024-05-06T07:08:00Z"';
const BODY = `<w:body>
  <w:p><w:r><w:t xml:space="preserve">Keep </w:t></w:r><w:ins w:id="1" ${author}><w:r><w:t xml:space="preserve">added </w:t></w:r></w:ins><w:del w:id="2" ${author}><w:r><w:delText xml:space="preserve">removed </w:delText></w:r></w:del><w:r><w:rPr><w:b/><w:rPrChange w:id="3" ${author}><w:rPr><w:i/></w:rPr></w:rPrChange></w:rPr><w:t>restyled</w:t></w:r></w:p>
  <w:p><w:pPr><w:jc w:val="center"/><w:pPrChange w:id="4" ${author}><w:pPr><w:jc w:val="right"/></w:pPr></w:pPrChange></w:pPr><w:moveFrom w:id="5" ${author}><w:r><w:t xml:space="preserve">moved away </w:t></w:r></w:moveFrom><w:moveTo w:id="6" ${author}><w:r><w:t>moved here</w:t></w:r></w:moveTo></w:p>
  <w:p><w:pPr><w:rPr><w:del w:id="7" ${author}/></w:rPr></w:pPr><w:r><w:t xml:space="preserve">joined </w:t></w:r></w:p>
  <w:p><w:r><w:t>to the next</w:t></w:r></w:p>
  <w:p><w:pPr><w:rPr><w:ins w:id="8" ${author}/></w:rPr></w:pPr><w:ins w:id="9" ${author}><w:r><w:t>new paragraph</w:t></w:r></w:ins></w:p>
  <w:p><w:r><w:t>last</w:t></w:r></w:p>
</w:body>`;

function read(revisions: RevisionMode) {
  return readParts({ document: BODY }, { revisions });
}

describe('tracked changes', () => {
  it('markup keeps insertions and deletions, marked with author and date', () => {
    const model = read('markup');
    const list = paragraphs(model);
    expect(list.map(textOf)).toEqual([
      'Keep added removed restyled',
      'moved away moved here',
      'joined ',
      'to the next',
      'new paragraph',
      'last',
    ]);
    const mark = { author: 'Ada', date: '2024-05-06T07:08:00Z' };
    expect(textInline(model, 'added').revision).toEqual({ kind: 'insert', ...mark });
    expect(textInline(model, 'removed').revision).toEqual({ kind: 'delete', ...mark });
    expect(textInline(model, 'restyled').revision).toEqual({ kind: 'format', ...mark });
    expect(textInline(model, 'restyled').props.bold).toBe(true);
    expect(textInline(model, 'moved away').revision?.kind).toBe('moveFrom');
    expect(textInline(model, 'moved here').revision?.kind).toBe('moveTo');
    expect(textInline(model, 'Keep').revision).toBeUndefined();
    expect(list[1]?.props.align).toBe('center');
    expect(list[2]?.markRevision).toEqual({ kind: 'delete', ...mark });
    expect(list[4]?.markRevision).toEqual({ kind: 'insert', ...mark });
  });

  it('final accepts every change, unmarked; a deleted paragraph mark joins the next paragraph', () => {
    const model = read('final');
    const list = paragraphs(model);
    expect(list.map(textOf)).toEqual([
      'Keep added restyled',
      'moved here',
      'joined to the next',
      'new paragraph',
      'last',
    ]);
    for (const paragraph of list) {
      expect(paragraph.markRevision).toBeUndefined();
      for (const inline of texts(paragraph)) expect(inline.revision).toBeUndefined();
    }
    expect(textInline(model, 'restyled').props).toMatchObject({ bold: true, italic: false });
    expect(list[1]?.props.align).toBe('center');
  });

  it('original rejects every change: old properties, deleted text back, inserted paragraph marks gone', () => {
    const model = read('original');
    const list = paragraphs(model);
    expect(list.map(textOf)).toEqual(['Keep removed restyled', 'moved away ', 'joined ', 'to the next', 'last']);
    expect(textInline(model, 'restyled').props).toMatchObject({ bold: false, italic: true });
    expect(list[1]?.props.align).toBe('right');
    for (const paragraph of list) for (const inline of texts(paragraph)) expect(inline.revision).toBeUndefined();
  });

  it('drops deleted table rows under final and inserted ones under original', () => {
    const row = (text: string, change = '') =>
      `<w:tr>${change ? `<w:trPr>${change}</w:trPr>` : ''}<w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc></w:tr>`;
    const document = `<w:body><w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>${row('kept')}${row('inserted row', `<w:ins w:id="1" ${author}/>`)}${row('deleted row', `<w:del w:id="2" ${author}/>`)}</w:tbl></w:body>`;
    const rowsOf = (revisions: RevisionMode) => paragraphs(readParts({ document }, { revisions })).map(textOf);
    expect(rowsOf('markup')).toEqual(['kept', 'inserted row', 'deleted row']);
    expect(rowsOf('final')).toEqual(['kept', 'inserted row']);
    expect(rowsOf('original')).toEqual(['kept', 'deleted row']);
  });
});
