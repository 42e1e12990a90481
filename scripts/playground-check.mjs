#!/usr/bin/env node
// `npm run playground-check [-- --out DIR]`: walks the playground page (GET /playground) in a real
// browser, as a user would: Debian's headless Chromium (/usr/bin/chromium, or $CHROMIUM), driven by
// playwright-core (no browser download), against a real `npm start` on port 8794
// ($PLAYGROUND_PORT), whose log gives the emailed code (MAIL_TRANSPORT=log).
// Steps: get a key by email code; convert a DOCX built here and wait for the PDF preview; fill a
// template built here ({{placeholder}} and a content control) to DOCX, then to PDF; sign the filled
// PDF, then verify it and read the verdict; an error body shown as code and message. Each step
// checks the curl command the page shows (with $QUIRE_KEY, never the key), and at the end runs them
// in bash as pasted and checks the files they write (a PDF, a DOCX holding the values sent).
// Writes the screenshots to --out (default /tmp/quire-playground): convert.png, template.png,
// sign-verify.png, and key.png of the key section. Prints one line per check and
// "playground-check: N passed, N failed"; exits non-zero on a failure. Without Chromium it says
// it skips and why, and exits 0. .ci/run runs it after the examples.

// biome-ignore-all lint/performance/useDomNodeTextContent: these are playwright's locator.innerText(), the text as rendered (the checks read its line breaks), not DOM nodes
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { CHROMIUM_FLAGS, chromiumPath } from './chromium.mjs';
import { startLocalServer } from './local-server.mjs';
import { helpIfAsked } from './script-help.mjs';
import { commandOption } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

if (!existsSync(chromiumPath)) {
  console.log(
    `playground-check: skipped: no Chromium at ${chromiumPath} (install Debian's chromium, or set CHROMIUM to a Chromium binary); the page's route is still tested by npm test`,
  );
  process.exit(0);
}
const { chromium } = await import('playwright-core');

const out = resolve(commandOption(process.argv.slice(2), '--out', '/tmp/quire-playground'));
mkdirSync(out, { recursive: true });
const port = Number(process.env.PLAYGROUND_PORT ?? 8794);
const base = `http://127.0.0.1:${port}`;
let passed = 0;
let failed = 0;

function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? ` — ${detail}` : ''}`);
  return ok;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// ---------------------------------------------------------------------------------------------
// Two small DOCX files made here (the repository holds no corpus files): a document to convert,
// and a template with a {{placeholder}} and a content control tagged "company".

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const escapeXml = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const run = (text, rPr = '') =>
  `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
const paragraph = (content) => `<w:p>${content}</w:p>`;

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:cs="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>`;

function docx(bodyXml) {
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/_rels/document.xml.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
    ),
    'word/styles.xml': strToU8(STYLES),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${bodyXml}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>`,
    ),
  });
}

const contract = Buffer.from(
  docx(
    [
      paragraph(run('Service agreement', '<w:b/><w:sz w:val="40"/>')),
      paragraph(run('This agreement is made between Quire Playground Ltd and the customer named below.')),
      paragraph(run('1. Services. ', '<w:b/>') + run('The provider converts, fills, signs and verifies documents.')),
      paragraph(run('2. Term. ', '<w:b/>') + run('This agreement runs for twelve months from the date of signing.')),
      paragraph(run('3. Fees. ', '<w:b/>') + run('Fees are due within thirty days of each invoice.')),
    ].join(''),
  ),
);

const template = Buffer.from(
  docx(
    [
      paragraph(run('Offer letter', '<w:b/><w:sz w:val="40"/>')),
      paragraph(run('Dear {{name}},')),
      paragraph(
        run('We are pleased to offer you a place at ') +
          `<w:sdt><w:sdtPr><w:tag w:val="company"/></w:sdtPr><w:sdtContent>${run('[company]')}</w:sdtContent></w:sdt>` +
          run('.'),
      ),
      paragraph(run('Kind regards, the Quire playground')),
    ].join(''),
  ),
);

// ---------------------------------------------------------------------------------------------

let browser;
const shots = [];
let server;
try {
  server = await startLocalServer(port, 'PLAYGROUND_PORT');
  const { codeFromLog } = server;

  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: CHROMIUM_FLAGS,
  });
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  // What the page itself reports: a CSP violation or a script error is a failure of the page.
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    // An API error answer is logged by Chromium as a failed resource; the page shows it, by design.
    const expected = /favicon|^Failed to load resource: the server responded with a status of [45]\d\d/;
    if (message.type() === 'error' && !expected.test(message.text())) pageErrors.push(message.text());
  });

  const loaded = await page.goto(`${base}/playground`);
  check('GET /playground loads, without a key', loaded?.status() === 200, `${loaded?.status()}`);
  check('the page has its title', (await page.title()) === 'Quire playground');

  /** Presses the button `name` of `form` and waits until the page has shown the answer in `panel`. */
  const submit = async (form, name, panel) => {
    await page.locator(`#${form}`).getByRole('button', { name, exact: true }).click();
    await page.waitForFunction((id) => !document.getElementById(id)?.hasAttribute('aria-busy'), panel);
  };
  /**
   * Whether Chromium's PDF viewer (an internal extension, loaded into the preview's blob: frame)
   * shows the preview of `panel`; it draws only a frame in view, so the preview is scrolled to first
   * and given a moment to draw its first page.
   */
  const viewerShows = async (panel) => {
    const preview = page.locator(`#${panel} iframe.preview`);
    await preview.scrollIntoViewIfNeeded();
    const frame = await (await preview.elementHandle())?.contentFrame();
    for (let i = 0; i < 100; i++) {
      if (frame?.childFrames().some((f) => f.url().startsWith('chrome-extension://'))) {
        await sleep(1500);
        return true;
      }
      await sleep(100);
    }
    return false;
  };
  /** The curl command a panel shows. */
  const curlOf = (panel) => page.locator(`#${panel} .curl-command`).innerText();
  let key = '';
  const noKeyIn = (text) => !key || !text.includes(key);

  // A pasted key that is no key is refused before anything is sent.
  await page.getByLabel('API key', { exact: true }).fill('not-a-key');
  await page.getByRole('button', { name: 'Use this key' }).click();
  check(
    'paste: a value that is no key is refused, and not kept',
    /Not sent/.test(await page.locator('#key-output .error').innerText()) &&
      (await page.evaluate(() => sessionStorage.getItem('quire.apiKey'))) === null,
  );

  // 1. A key by email code, typed in as a user reads it from the npm start terminal.
  const email = `playground.${Date.now()}@example.com`;
  await page.getByLabel('Email', { exact: true }).fill(email);
  // By keyboard: Enter in the email field sends the form, Enter in the code field verifies.
  await page.getByLabel('Email', { exact: true }).press('Enter');
  // The answer comes with its curl line (the refused paste above had none).
  await page.locator('#key-output .curl-command').waitFor();
  check('register: the page says a code was sent', await page.locator('#key-output .success').isVisible());
  const registerCurl = await curlOf('key-output');
  check(
    'register: the curl line asks for the code',
    registerCurl === `curl -s '${base}/v1/auth/register?email=${encodeURIComponent(email)}'`,
    registerCurl,
  );
  const code = await codeFromLog(email);
  check('register: the code is in the npm start log', code !== undefined);
  await page.getByLabel('Code', { exact: true }).fill(code ?? '');
  await page.getByLabel('Code', { exact: true }).press('Enter');
  await page.locator('#key-status.ok, #key-output:not([aria-busy]) .error').first().waitFor();
  key = await page.evaluate(() => sessionStorage.getItem('quire.apiKey') ?? '');
  check('verify: the key is kept in sessionStorage', /^qk_[0-9A-Za-z]{43}$/.test(key), key.slice(0, 8));
  check(
    'verify: the page says which key it uses, not all of it',
    (await page.locator('#key-status').innerText()).includes(`${key.slice(0, 7)}…${key.slice(-4)}`) &&
      noKeyIn(await page.locator('#key-status').innerText()),
  );
  check(
    'verify: the curl line sends the email and code',
    (await curlOf('key-output')).includes(`/v1/auth/verify?email=${encodeURIComponent(email)}&code=${code}`),
  );

  // 2. Convert a DOCX and wait for the PDF preview.
  await page
    .getByLabel('Document (DOCX, Markdown or HTML)')
    .setInputFiles({ name: 'playground-contract.docx', mimeType: 'application/octet-stream', buffer: contract });
  await submit('convert-form', 'Convert', 'convert-output');
  const converted = await page.locator('#convert-output').innerText();
  check(
    'convert: the DOCX converts',
    converted.includes('Converted playground-contract.docx'),
    converted.slice(0, 300),
  );
  check('convert: the page count is shown', /Pages\s+1\b/.test(converted), converted.slice(0, 300));
  const preview = page.locator('#convert-output iframe.preview');
  check('convert: the preview is a blob: frame', (await preview.getAttribute('src'))?.startsWith('blob:') === true);
  check("convert: Chromium's PDF viewer shows the preview", await viewerShows('convert-output'));
  const convertCurl = await curlOf('convert-output');
  check(
    'convert: the curl line posts the file with $QUIRE_KEY',
    convertCurl ===
      `curl -s -X POST -H "Authorization: Bearer $QUIRE_KEY" -F file=@playground-contract.docx '${base}/v1/convert?to=pdf' -o playground-contract.pdf`,
    convertCurl,
  );
  check('convert: the curl line holds no key', noKeyIn(convertCurl));
  await page.locator('#convert').screenshot({ path: join(out, 'convert.png') });
  shots.push(join(out, 'convert.png'));

  // 3. Fill a template: {{name}} and the content control "company", to DOCX (a value with the `;`
  // that curl's -F would cut at), then to PDF.
  await page
    .getByLabel('Template (DOCX with {{placeholders}} or content controls)')
    .setInputFiles({ name: 'offer-template.docx', mimeType: 'application/octet-stream', buffer: template });
  await page.locator('#field-rows tr').first().getByLabel('Value').fill("Ada O'Lovelace");
  await page.getByRole('button', { name: 'Add a field' }).click();
  const second = page.locator('#field-rows tr').nth(1);
  await second.getByLabel('Field id').fill('company');
  await second.getByLabel('Value').fill('Babbage; Engines & Co');
  await page.getByLabel('Output', { exact: true }).selectOption('docx');
  await submit('fill-form', 'Fill', 'fill-output');
  const filledDocx = await page.locator('#fill-output').innerText();
  check(
    'fill to DOCX: both fields are filled, and the DOCX is offered',
    filledDocx.includes('Filled 2 fields of offer-template.docx') &&
      (await page.locator('#fill-output a[download="offer-template-filled.docx"]').count()) === 1,
    filledDocx.slice(0, 300),
  );
  // The download as the user gets it (the page's CSP lets no script fetch its blob: URL).
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#fill-output a[download]').click(),
  ]);
  const downloaded = readFileSync(await download.path());
  check(
    'fill to DOCX: the download is the DOCX, named for the template',
    download.suggestedFilename() === 'offer-template-filled.docx' &&
      'word/document.xml' in unzipSync(downloaded, { filter: (f) => f.name === 'word/document.xml' }),
    download.suggestedFilename(),
  );
  const fillDocxCurl = await curlOf('fill-output');
  check(
    'fill to DOCX: the curl line uploads the template, asks for the DOCX, and sends a value with ; by --form-string',
    fillDocxCurl ===
      [
        `curl -s -X POST -H "Authorization: Bearer $QUIRE_KEY" -H 'Accept: application/vnd.openxmlformats-officedocument.wordprocessingml.document'`,
        '-F file=@offer-template.docx',
        `--form-string fields='[{"id":"name","type":"text","value":"Ada O'\\''Lovelace"},{"id":"company","type":"text","value":"Babbage; Engines & Co"}]'`,
        `'${base}/v1/annotate?to=docx' -o offer-template-filled.docx`,
      ].join(' \\\n  '),
    fillDocxCurl,
  );

  await second.getByLabel('Value').fill('Analytical Engines Ltd');
  await page.getByLabel('Output', { exact: true }).selectOption('pdf');
  await submit('fill-form', 'Fill', 'fill-output');
  const filled = await page.locator('#fill-output').innerText();
  check(
    'fill: both fields are filled',
    filled.includes('Filled 2 fields of offer-template.docx'),
    filled.slice(0, 300),
  );
  check('fill: the page count is shown', /Pages\s+1\b/.test(filled), filled.slice(0, 300));
  check('fill: the PDF is previewed', await viewerShows('fill-output'));
  const fillCurl = await curlOf('fill-output');
  check(
    'fill: the curl line uploads the template and the fields, quoted for the shell, and asks for the PDF',
    fillCurl ===
      [
        `curl -s -X POST -H "Authorization: Bearer $QUIRE_KEY" -H 'Accept: application/pdf'`,
        '-F file=@offer-template.docx',
        `-F fields='[{"id":"name","type":"text","value":"Ada O'\\''Lovelace"},{"id":"company","type":"text","value":"Analytical Engines Ltd"}]'`,
        `'${base}/v1/annotate?to=pdf' -o offer-template-filled.pdf`,
      ].join(' \\\n  '),
    fillCurl,
  );
  check('fill: the curl line holds no key', noKeyIn(fillCurl));
  await page.locator('#fill').screenshot({ path: join(out, 'template.png') });
  shots.push(join(out, 'template.png'));

  // An error body, shown as the API's code and message: a DOCX sent to verify is 415.
  await page
    .getByLabel('PDF to verify (optional)')
    .setInputFiles({ name: 'not-a-pdf.docx', mimeType: 'application/octet-stream', buffer: template });
  await submit('verify-form', 'Verify', 'verify-output');
  const refused = await page.locator('#verify-output .error').innerText();
  check(
    'an error shows the status, code, message and requestId',
    /415 UNSUPPORTED_MEDIA_TYPE/.test(refused) && /requestId /.test(refused) && refused.split('\n').length >= 3,
    refused,
  );
  await page.getByLabel('PDF to verify (optional)').setInputFiles([]);

  // 4. Sign the last PDF made (the filled one), then verify the signed PDF.
  check('sign: the last PDF made is offered', await page.locator('#source-last').isChecked());
  await submit('sign-form', 'Sign', 'sign-output');
  const signedText = await page.locator('#sign-output').innerText();
  check(
    'sign: the filled PDF is signed',
    signedText.includes('Signed offer-template-filled.pdf as Ada Lovelace'),
    signedText.slice(0, 300),
  );
  check(
    'sign: the event id, certificate pages and size are shown',
    /Event id\s+[0-9a-f]{8}-[0-9a-f]{4}-/.test(signedText) &&
      /Certificate pages\s+1\b/.test(signedText) &&
      /Size\s+\d/.test(signedText),
    signedText.slice(0, 400),
  );
  const signCurl = await curlOf('sign-output');
  // Exactly this, but for the audit trail's two times (when the page was ready, when Sign was pressed).
  const time = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';
  const signPattern = [
    `curl -s -X POST -H "Authorization: Bearer $QUIRE_KEY" -H 'Accept: application/pdf'`,
    '-F file=@offer-template-filled.pdf',
    `-F signer='{"name":"Ada Lovelace","email":"ada@example.com"}'`,
    `-F auditTrail='[{"type":"ready","timestamp":"TIME"},{"type":"submit","timestamp":"TIME","data":{"via":"Quire playground"}}]'`,
    `-F certificate='{"enabled":true}'`,
    `${base}/v1/sign -o offer-template-filled-signed.pdf`,
  ]
    .join(' \\\n  ')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replaceAll('TIME', time);
  check(
    'sign: the curl line uploads the PDF, signer, audit trail and certificate, and asks for the PDF',
    new RegExp(`^${signPattern}$`).test(signCurl) && noKeyIn(signCurl),
    signCurl,
  );
  check('sign: the signed PDF is previewed', await viewerShows('sign-output'));
  await submit('verify-form', 'Verify', 'verify-output');
  const verdict = await page.locator('#verify-output').innerText();
  check(
    'verify: the verdict is Valid, PAdES B-B, intact and cryptographically valid',
    (await page.locator('#verify-output .verdict-title').innerText()) === 'Valid' &&
      /Level\s+B-B\b/.test(verdict) &&
      /Intact\s+yes/.test(verdict) &&
      /Cryptographically valid\s+yes/.test(verdict),
    verdict.slice(0, 400),
  );
  check('verify: screen readers are told the verdict', (await page.locator('#announce').textContent()) === 'Valid');
  const verifyCurl = await curlOf('verify-output');
  check(
    'verify: the curl line posts the signed PDF',
    verifyCurl ===
      `curl -s -X POST -H "Authorization: Bearer $QUIRE_KEY" -F file=@offer-template-filled-signed.pdf ${base}/v1/verify`,
    verifyCurl,
  );
  // The section is taller than the window, and the viewer draws only while in view: the window is
  // made as tall as the section, so that the signed PDF's preview is drawn in the screenshot too.
  const viewport = page.viewportSize();
  const tall = await page.locator('#sign').boundingBox();
  if (viewport && tall) await page.setViewportSize({ width: viewport.width, height: Math.ceil(tall.height) + 40 });
  await viewerShows('sign-output');
  await page.locator('#sign').screenshot({ path: join(out, 'sign-verify.png') });
  if (viewport) await page.setViewportSize(viewport);
  shots.push(join(out, 'sign-verify.png'));

  // The curl commands shown, run as a user would paste them (bash, QUIRE_KEY set), in out/curl.
  const work = join(out, 'curl');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  writeFileSync(join(work, 'playground-contract.docx'), contract);
  writeFileSync(join(work, 'offer-template.docx'), template);
  const shell = (command) =>
    spawnSync('bash', ['-c', command], { cwd: work, env: { ...process.env, QUIRE_KEY: key }, encoding: 'utf8' });
  const isPdf = (file) =>
    existsSync(join(work, file)) && readFileSync(join(work, file)).subarray(0, 5).toString() === '%PDF-';
  shell(convertCurl);
  check('curl: the convert command, pasted, writes the PDF', isPdf('playground-contract.pdf'));
  const filledDocxRun = shell(fillDocxCurl);
  let documentXml = '';
  try {
    documentXml = strFromU8(unzipSync(readFileSync(join(work, 'offer-template-filled.docx')))['word/document.xml']);
  } catch {}
  check(
    'curl: the fill-to-DOCX command, pasted, writes the DOCX with both values as sent',
    (documentXml.includes("Ada O'Lovelace") || documentXml.includes('Ada O&apos;Lovelace')) &&
      documentXml.includes('Babbage; Engines &amp; Co'),
    filledDocxRun.stderr || documentXml.slice(0, 300),
  );
  const filledRun = shell(fillCurl);
  check('curl: the fill command, pasted, writes the filled PDF', isPdf('offer-template-filled.pdf'), filledRun.stderr);
  const signed = shell(signCurl);
  check(
    'curl: the sign command, pasted, writes the signed PDF',
    isPdf('offer-template-filled-signed.pdf'),
    signed.stderr,
  );
  let pastedVerdict;
  try {
    pastedVerdict = JSON.parse(shell(verifyCurl).stdout);
  } catch {}
  check(
    'curl: the verify command, pasted, says valid',
    pastedVerdict?.valid === true,
    JSON.stringify(pastedVerdict)?.slice(0, 300),
  );

  await page.locator('#key').screenshot({ path: join(out, 'key.png') });
  shots.push(join(out, 'key.png'));
  check(
    'no curl line on the page holds the key',
    noKeyIn(
      await page
        .locator('.curl-command')
        .allInnerTexts()
        .then((t) => t.join('\n')),
    ),
  );
  check('the page reported no script error or CSP violation', pageErrors.length === 0, pageErrors.join(' | '));
} catch (error) {
  check('playground run', false, String(error instanceof Error ? error.message : error));
} finally {
  await browser?.close().catch(() => {});
  server?.stop();
}
for (const shot of shots) console.log(`screenshot ${shot}`);
console.log(`playground-check: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
