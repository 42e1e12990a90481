import type { Context } from 'hono';
import { attachmentDisposition } from '../../services';
import type { AppEnv } from './app-env';

/**
 * The document itself as the answer (convert always; sign and annotate when Accept asks for it):
 * its media type, and Content-Disposition naming it (RFC 6266) so that a browser or `curl -OJ`
 * saves it under that name.
 */
export function fileAnswer(c: Context<AppEnv>, bytes: Uint8Array, mediaType: string, fileName: string) {
  c.header('Content-Type', mediaType);
  c.header('Content-Disposition', attachmentDisposition(fileName));
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200);
}
