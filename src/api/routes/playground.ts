import { ApiError } from '../../errors';
import { createRouter, pageSecurity } from '../http';

/**
 * GET /playground: a page to try the API from a browser (README "Playground"). Its three files are
 * static assets (assets/playground/, plain HTML, JS and CSS with no build step), read through the
 * ASSETS binding: with run_worker_first nothing in assets/ is public, so these routes name exactly
 * the files that are, and the fonts beside them stay private. The page is public; the API calls it
 * makes carry the key the user gets or pastes there, like any other caller's.
 */

/** Path → the asset it serves. Nothing else under /playground is answered. */
const FILES: Record<string, string> = {
  '/playground': 'playground/index.html',
  '/playground/app.js': 'playground/app.js',
  '/playground/style.css': 'playground/style.css',
};

/**
 * What the page may load, and nothing more: its own script and stylesheet (no inline script or
 * style, so injected markup cannot run), fetches to this origin only (the API), and frames of blob:
 * URLs only, for the PDF preview of a document made in the page. No plugins (Chromium's PDF viewer
 * in an iframe is not one), no <base>, no form submission (forms are handled by the script), and no
 * framing by another page: it holds an API key.
 */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  'frame-src blob:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const playground = createRouter();
// Routes are matched strictly; /playground/ is the address a user is as likely to type.
playground.get('/playground/', (c) => c.redirect('/playground', 301));
playground.use('/playground', pageSecurity(PLAYGROUND_CSP));
playground.use('/playground/*', pageSecurity(PLAYGROUND_CSP));
for (const [path, file] of Object.entries(FILES)) {
  playground.get(path, async (c) => {
    const asset = await c.env.ASSETS.fetch(new URL(`/${file}`, c.req.url));
    if (!asset.ok) throw new ApiError('INTERNAL_ERROR', `The playground's ${file} is missing from the static assets.`);
    return new Response(asset.body, {
      headers: { 'Content-Type': asset.headers.get('Content-Type') ?? 'application/octet-stream' },
    });
  });
}
