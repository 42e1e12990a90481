import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';

/** POST /v1/convert takes exactly one multipart part "file"; each other shape is named as it is. */
describe('POST /v1/convert: the file part', () => {
  const upload = (text: string, name: string) => new File([new TextEncoder().encode(text)], name);
  const post = async (form: FormData) =>
    call('/v1/convert?to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));

  it('two parts named file: 400 saying exactly one is expected', async () => {
    const form = new FormData();
    form.append('file', upload('# a', 'a.md'));
    form.append('file', upload('# b', 'b.md'));
    const body = await expectError(await post(form), 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual([
      { field: 'file', issue: expect.stringContaining('exactly one multipart part "file"') },
    ]);
    expect(body.message).toContain('the request has 2');
  });

  it('a text field named file: 400 saying it must be a file', async () => {
    const form = new FormData();
    form.append('file', '# just text');
    const body = await expectError(await post(form), 400, 'VALIDATION_ERROR');
    expect(body.message).toContain('is a text field');
  });

  it('no part named file: 400 asking for it', async () => {
    const form = new FormData();
    form.append('document', upload('# a', 'a.md'));
    const body = await expectError(await post(form), 400, 'VALIDATION_ERROR');
    expect(body.message).toContain('Attach the document as the multipart part "file"');
  });

  it('one file part, other parts beside it: converts', async () => {
    const form = new FormData();
    form.append('file', upload('# Hello', 'a.md'));
    form.append('note', 'ignored');
    const res = await post(form);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
  });
});
