import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../../helpers/accounts';
import { call } from '../../../helpers/api';
import { pdfText } from '../../../helpers/pdf-text';

describe('POST /v1/convert: Markdown nested past the cap', () => {
  it('100,000 nested > gives a PDF holding the text (it was an empty PDF)', async () => {
    const form = new FormData();
    form.append(
      'file',
      new File([new TextEncoder().encode(`${'>'.repeat(100_000)} The innermost words.\n`)], 'deep.md'),
    );
    const started = Date.now();
    const res = await call('/v1/convert?to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    const text = (await pdfText(new Uint8Array(await res.arrayBuffer()))).join('\n');
    expect(text).toContain('The innermost words.');
  });
});
