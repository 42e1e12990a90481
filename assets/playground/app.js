// The Quire playground (GET /playground): plain browser JavaScript, no framework and no build step.
// Every action is a real request to this origin's API, shown beside it as the equivalent curl
// command with $QUIRE_KEY in place of the key. The page's CSP (src/api/routes/playground.ts)
// allows this file, fetches to this origin and blob: frames (the PDF preview), so everything the
// API answers is put into the page with textContent, never as markup.

const ORIGIN = window.location.origin;
const KEY_STORAGE = 'quire.apiKey';
const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
// The audit trail of a signature made here starts with this page being ready.
const pageReadyAt = new Date().toISOString();

const $ = (id) => document.getElementById(id);

/** What the last action that made a PDF made: the one "Sign" can take, and the one "Verify" takes. */
const state = { lastPdf: undefined, signedPdf: undefined, urls: new Map() };

// ---------------------------------------------------------------------------------------------
// The key: in sessionStorage, so it lives as long as this tab and no other page sees it.

function currentKey() {
  return sessionStorage.getItem(KEY_STORAGE) ?? '';
}

function showKeyStatus() {
  const key = currentKey();
  $('key-status').textContent = key
    ? `Using key ${key.slice(0, 7)}…${key.slice(-4)} (kept in this tab). In a terminal: export QUIRE_KEY=<your key>`
    : 'No key yet: get one by email code, or paste one.';
  $('key-status').classList.toggle('ok', Boolean(key));
}

function useKey(key) {
  sessionStorage.setItem(KEY_STORAGE, key);
  showKeyStatus();
}

// ---------------------------------------------------------------------------------------------
// Requests and their curl equivalents.

class ApiProblem extends Error {
  constructor(status, body) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * fetch to this origin, with the key when there is one and the route needs it (`withKey`); an
 * answer that is not 2xx throws ApiProblem with its error body.
 */
async function api(path, init = {}, { withKey = true } = {}) {
  const headers = new Headers(init.headers);
  const key = currentKey();
  if (withKey && key) headers.set('Authorization', `Bearer ${key}`);
  const res = await fetch(path, { ...init, headers });
  if (!res.ok) {
    const text = await res.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = { code: `HTTP ${res.status}`, message: text.slice(0, 500) || res.statusText };
    }
    throw new ApiProblem(res.status, body);
  }
  return res;
}

/** A word for a POSIX shell, single-quoted (a ' inside becomes '\''). */
function sh(text) {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** A file name usable in a shell command and on disk: the upload's, or `fallback`. */
function fileName(file, fallback) {
  return file?.name || fallback;
}

function baseName(name) {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

const AUTH = '-H "Authorization: Bearer $QUIRE_KEY"';

/**
 * A text field of a curl form: `-F name=value`, or `--form-string name=value` when -F would not
 * send the value as it is (curl reads a `;` in it as the start of its own `;type=`, a leading `@`
 * or `<` as a file to read, a leading `"` as its quoting).
 */
function formField(name, value) {
  const literal = value.includes(';') || /^[@<"]/.test(value);
  return `${literal ? '--form-string' : '-F'} ${name}=${sh(value)}`;
}

/**
 * The curl command of a form upload that asks for the file itself (`Accept`) and writes it to
 * `outName`: one part per line, the file first.
 */
function curlUpload(path, accept, fileName, fields, outName) {
  return [
    `curl -s -X POST ${AUTH} -H ${sh(`Accept: ${accept}`)}`,
    `-F file=@${sh(fileName)}`,
    ...Object.entries(fields).map(([name, value]) => formField(name, value)),
    `${sh(`${ORIGIN}${path}`)} -o ${sh(outName)}`,
  ].join(' \\\n  ');
}

/** The request's form: the document as the part `file`, each field as its JSON text (a string as it is). */
function formOf(file, name, fields) {
  const form = new FormData();
  form.append('file', file, name);
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  return form;
}

/**
 * The answer as the file asked for; an answer of another type (a proxy that dropped Accept) is an
 * error rather than a file that is not one.
 */
async function fileOf(res, accept) {
  const type = res.headers.get('Content-Type') ?? '';
  if (!type.startsWith(accept)) {
    throw Object.assign(new Error(`The API answered ${type || 'no Content-Type'}, not ${accept}.`), {
      heading: 'Unexpected answer',
    });
  }
  return new Blob([await res.blob()], { type: accept });
}

// ---------------------------------------------------------------------------------------------
// Output panels.

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'class') node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** Replaces what `panel` shows with the curl command (with a copy button) and `nodes`. */
function show(panel, curl, ...nodes) {
  panel.replaceChildren();
  panel.hidden = false;
  if (curl) {
    // One block per line of the command, so that a line too long for the panel wraps with a hanging
    // indent (style.css) rather than back at the margin, where it would read as a line of its own.
    const code = element(
      'code',
      {},
      ...curl.split('\n').map((line) => element('span', { class: 'curl-line', text: line })),
    );
    const copy = element('button', { type: 'button', class: 'secondary copy', text: 'Copy' });
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(curl);
        copy.textContent = 'Copied';
      } catch {
        copy.textContent = 'Select and copy';
      }
    });
    panel.append(
      element('div', { class: 'curl' }, element('p', { class: 'label', text: 'The same request with curl' }), copy),
      element('pre', { class: 'curl-command' }, code),
    );
  }
  panel.append(...nodes.filter(Boolean));
  // The outcome in one line for screen readers: the success message, or the error's code.
  const outcome = panel.querySelector('.success, .error-code, .verdict-title');
  $('announce').textContent = outcome?.textContent ?? '';
}

/** The API's error body as the page shows it: status, code, message, details and request id. */
function problemNode(error) {
  const box = element('div', { class: 'error', role: 'alert' });
  if (!(error instanceof ApiProblem)) {
    // A TypeError is fetch's own failure (no connection); an error with a heading names itself;
    // anything else was caught before sending.
    const heading = error instanceof TypeError ? 'Request failed' : (error.heading ?? 'Not sent');
    box.append(element('p', { class: 'error-code', text: heading }), element('p', { text: error.message }));
    return box;
  }
  const { status, body } = error;
  box.append(
    element('p', { class: 'error-code', text: `${status} ${body.code ?? ''}` }),
    element('p', { class: 'error-message', text: body.message ?? '' }),
  );
  if (Array.isArray(body.details) && body.details.length) {
    const list = element('ul');
    for (const d of body.details) list.append(element('li', { text: `${d.field}: ${d.issue}` }));
    box.append(list);
  }
  if (body.requestId) box.append(element('p', { class: 'muted', text: `requestId ${body.requestId}` }));
  return box;
}

/** A blob: URL for what `panel` is about to show; released when the panel's next action starts. */
function objectUrl(panel, blob) {
  const url = URL.createObjectURL(blob);
  state.urls.set(panel.id, [...(state.urls.get(panel.id) ?? []), url]);
  return url;
}

function releaseUrls(panel) {
  for (const url of state.urls.get(panel.id) ?? []) URL.revokeObjectURL(url);
  state.urls.delete(panel.id);
}

/** A link that downloads `blob` as `name`. */
function downloadLink(panel, blob, name, text = `Download ${name}`) {
  const url = objectUrl(panel, blob);
  return element('a', { href: url, download: name, class: 'button-link', text });
}

/** An iframe showing the PDF `blob` in the browser's own viewer. */
function pdfPreview(panel, blob, name) {
  const url = objectUrl(panel, new Blob([blob], { type: PDF }));
  return element('iframe', { class: 'preview', src: url, title: `Preview of ${name}` });
}

/** Runs `action` with the form's submit button disabled and the panel marked busy. */
function busy(form, panel, action) {
  return async (event) => {
    event?.preventDefault();
    const buttons = form.querySelectorAll('button');
    for (const b of buttons) b.disabled = true;
    panel.setAttribute('aria-busy', 'true');
    releaseUrls(panel);
    try {
      await action();
    } finally {
      for (const b of buttons) b.disabled = false;
      panel.removeAttribute('aria-busy');
    }
  };
}

function facts(pairs) {
  const list = element('dl', { class: 'facts' });
  for (const [term, value] of pairs) {
    if (value === undefined || value === null || value === '') continue;
    list.append(element('dt', { text: term }), element('dd', { text: String(value) }));
  }
  return list;
}

/** Header text as written: the API escapes characters outside visible ASCII as \uXXXX or \u{XXXXX}. */
function unescapeHeader(text) {
  return text.replace(/\\u\{([0-9A-Fa-f]{1,6})\}|\\u([0-9A-Fa-f]{4})/g, (_, long, short) =>
    String.fromCodePoint(Number.parseInt(long ?? short, 16)),
  );
}

function warningsOf(res) {
  const header = res.headers.get('X-Quire-Warnings');
  if (!header) return undefined;
  const text = unescapeHeader(header);
  const list = element('ul', { class: 'warnings' });
  for (const w of text.split(' | ')) list.append(element('li', { text: w }));
  return element('div', {}, element('p', { class: 'label', text: 'Warnings (X-Quire-Warnings)' }), list);
}

function sizeText(bytes) {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The PDF "Sign" offers as "the last PDF made here". */
function rememberPdf(blob, name) {
  state.lastPdf = { blob, name };
  $('source-last').disabled = false;
  $('source-last').checked = true;
  $('last-pdf-name').textContent = `(${name})`;
}

// ---------------------------------------------------------------------------------------------
// 1. The key.

function register() {
  const panel = $('key-output');
  return busy($('register-form'), panel, async () => {
    const email = $('email').value.trim();
    const path = `/v1/auth/register?email=${encodeURIComponent(email)}`;
    const curl = `curl -s ${sh(`${ORIGIN}${path}`)}`;
    try {
      const body = await (await api(path, {}, { withKey: false })).json();
      show(
        panel,
        curl,
        element('p', {
          class: 'success',
          text: `${body.message} The code expires in ${Math.round(body.expiresInSeconds / 60)} minutes; type it above and press Verify code.`,
        }),
      );
      $('code').focus();
    } catch (error) {
      show(panel, curl, problemNode(error));
    }
  });
}

function verifyCode() {
  const panel = $('key-output');
  return busy($('register-form'), panel, async () => {
    const email = $('email').value.trim();
    const code = $('code').value.trim();
    const path = `/v1/auth/verify?email=${encodeURIComponent(email)}&code=${encodeURIComponent(code)}`;
    const curl = `curl -s ${sh(`${ORIGIN}${path}`)}`;
    try {
      const body = await (await api(path, {}, { withKey: false })).json();
      useKey(body.apiKey);
      $('pasted-key').value = '';
      show(
        panel,
        curl,
        element('p', {
          class: 'success',
          text: `Key created for ${body.email}. It is shown once: keep it (the page keeps it for this tab).`,
        }),
        element('p', {}, element('label', { for: 'new-key', text: 'Your key' })),
        element('input', { id: 'new-key', readonly: '', value: body.apiKey, class: 'key-field', spellcheck: 'false' }),
      );
    } catch (error) {
      show(panel, curl, problemNode(error));
    }
  });
}

// ---------------------------------------------------------------------------------------------
// 2. Convert.

function convert() {
  const panel = $('convert-output');
  return busy($('convert-form'), panel, async () => {
    const file = $('convert-file').files[0];
    const to = $('convert-to').value;
    const name = fileName(file, 'document.docx');
    const outName = `${baseName(name)}.${to}`;
    const curl = `curl -s -X POST ${AUTH} -F file=@${sh(name)} ${sh(`${ORIGIN}/v1/convert?to=${to}`)} -o ${sh(outName)}`;
    if (!file) return show(panel, curl, problemNode(new Error('Choose a file to convert first.')));
    const form = new FormData();
    form.append('file', file, name);
    try {
      const res = await api(`/v1/convert?to=${to}`, { method: 'POST', body: form });
      const blob = await res.blob();
      const pages = res.headers.get('X-Quire-Pages');
      const nodes = [
        element('p', { class: 'success', text: `Converted ${name} to ${outName}.` }),
        facts([
          ['Pages', pages],
          ['Size', sizeText(blob.size)],
          ['Type', res.headers.get('Content-Type')],
        ]),
        warningsOf(res),
        downloadLink(panel, blob, outName),
      ];
      if (to === 'pdf') {
        rememberPdf(blob, outName);
        nodes.push(pdfPreview(panel, blob, outName));
      }
      show(panel, curl, ...nodes);
    } catch (error) {
      show(panel, curl, problemNode(error));
    }
  });
}

// ---------------------------------------------------------------------------------------------
// 3. Fill a template.

function addFieldRow(id = '', value = '') {
  const row = $('field-row').content.firstElementChild.cloneNode(true);
  row.querySelector('.field-id').value = id;
  row.querySelector('.field-value').value = value;
  row.querySelector('.remove-field').addEventListener('click', () => {
    const next = row.nextElementSibling ?? row.previousElementSibling;
    row.remove();
    (next?.querySelector('.field-id') ?? $('add-field')).focus();
  });
  $('field-rows').append(row);
  return row;
}

function fieldList() {
  return [...$('field-rows').querySelectorAll('tr')]
    .map((row) => ({
      id: row.querySelector('.field-id').value.trim(),
      type: 'text',
      value: row.querySelector('.field-value').value,
    }))
    .filter((field) => field.id);
}

function fill() {
  const panel = $('fill-output');
  return busy($('fill-form'), panel, async () => {
    const file = $('fill-file').files[0];
    const to = $('fill-to').value;
    const name = fileName(file, 'template.docx');
    const fields = fieldList();
    const outName = `${baseName(name)}-filled.${to}`;
    const accept = to === 'pdf' ? PDF : DOCX;
    const path = `/v1/annotate?to=${to}`;
    const formFields = { fields: JSON.stringify(fields) };
    const curl = curlUpload(path, accept, name, formFields, outName);
    if (!file) return show(panel, curl, problemNode(new Error('Choose a DOCX template first.')));
    try {
      const res = await api(path, {
        method: 'POST',
        headers: { Accept: accept },
        body: formOf(file, name, formFields),
      });
      const blob = await fileOf(res, accept);
      const nodes = [
        element('p', {
          class: 'success',
          text: `Filled ${fields.length} field${fields.length === 1 ? '' : 's'} of ${name}.`,
        }),
        facts([
          ['Pages', res.headers.get('X-Quire-Pages')],
          ['Size', sizeText(blob.size)],
          ['Type', accept],
        ]),
        warningsOf(res),
        downloadLink(panel, blob, outName),
      ];
      if (accept === PDF) {
        rememberPdf(blob, outName);
        nodes.push(pdfPreview(panel, blob, outName));
      }
      show(panel, curl, ...nodes);
    } catch (error) {
      show(panel, curl, problemNode(error));
    }
  });
}

// ---------------------------------------------------------------------------------------------
// 4. Sign, then verify.

function sign() {
  const panel = $('sign-output');
  return busy($('sign-form'), panel, async () => {
    const fromLast = $('source-last').checked && state.lastPdf;
    const file = fromLast ? undefined : $('sign-file').files[0];
    const source = fromLast ? state.lastPdf.blob : file;
    const name = fromLast ? state.lastPdf.name : fileName(file, 'document.pdf');
    const outName = `${baseName(name)}-signed.pdf`;
    const request = {
      signer: { name: $('signer-name').value.trim(), email: $('signer-email').value.trim() },
      auditTrail: [
        { type: 'ready', timestamp: pageReadyAt },
        { type: 'submit', timestamp: new Date().toISOString(), data: { via: 'Quire playground' } },
      ],
      certificate: { enabled: $('sign-certificate').checked },
    };
    const formFields = Object.fromEntries(Object.entries(request).map(([k, v]) => [k, JSON.stringify(v)]));
    const curl = curlUpload('/v1/sign', PDF, name, formFields, outName);
    if (!source) return show(panel, curl, problemNode(new Error('Choose a PDF or DOCX to sign first.')));
    try {
      const res = await api('/v1/sign', {
        method: 'POST',
        headers: { Accept: PDF },
        body: formOf(source, name, formFields),
      });
      const blob = await fileOf(res, PDF);
      state.signedPdf = { blob, name: outName };
      show(
        panel,
        curl,
        element('p', { class: 'success', text: `Signed ${name} as ${request.signer.name}.` }),
        facts([
          ['Event id', unescapeHeader(res.headers.get('X-Quire-Event-Id') ?? '')],
          ['Certificate pages', res.headers.get('X-Quire-Certificate-Pages')],
          ['Certificate omitted', res.headers.get('X-Quire-Certificate-Omitted')],
          ['Pages', res.headers.get('X-Quire-Pages')],
          ['Size', sizeText(blob.size)],
        ]),
        warningsOf(res),
        downloadLink(panel, blob, outName),
        pdfPreview(panel, blob, outName),
      );
      $('verify-form').querySelector('button[type=submit]').focus();
    } catch (error) {
      show(panel, curl, problemNode(error));
    }
  });
}

function verdictNode(verdict) {
  const box = element('div', { class: `verdict ${verdict.valid ? 'valid' : 'invalid'}` });
  box.append(
    element('p', { class: 'verdict-title', text: verdict.valid ? 'Valid' : 'Not valid' }),
    element('p', { class: 'verdict-reason', text: verdict.reason }),
  );
  verdict.signatures.forEach((s, i) => {
    const signer = [s.signer?.name, s.signer?.email && `<${s.signer.email}>`].filter(Boolean).join(' ');
    box.append(
      element('h4', { text: `Signature ${i + 1}: ${s.field}` }),
      facts([
        ['Signer (certificate)', signer],
        ['Certificate', s.signer?.certificate?.subject],
        ['Signed at', s.signedAt],
        ['Level', s.level],
        ['Intact', s.intact ? 'yes' : 'no'],
        ['Cryptographically valid', s.cryptographicallyValid ? 'yes' : 'no'],
        ['Covers', s.coverage],
        ['Changes after signing', s.modificationsAfterSigning],
        ['Trust', s.trust],
        ['Revocation', s.revocation],
      ]),
    );
    if (s.problems?.length) {
      const list = element('ul', { class: 'warnings' });
      for (const p of s.problems) list.append(element('li', { text: p }));
      box.append(element('p', { class: 'label', text: 'Problems' }), list);
    }
  });
  box.append(
    facts([
      ['Pages', verdict.document?.pages],
      ['Revisions', verdict.document?.revisions],
      ['SHA-256', verdict.document?.sha256],
    ]),
  );
  return box;
}

function verify() {
  const panel = $('verify-output');
  return busy($('verify-form'), panel, async () => {
    const chosen = $('verify-file').files[0];
    const source = chosen ?? state.signedPdf?.blob;
    const name = chosen ? fileName(chosen, 'document.pdf') : (state.signedPdf?.name ?? 'signed.pdf');
    const curl = `curl -s -X POST ${AUTH} -F file=@${sh(name)} ${sh(`${ORIGIN}/v1/verify`)}`;
    if (!source) return show(panel, curl, problemNode(new Error('Sign a document first, or choose a PDF to verify.')));
    const form = new FormData();
    form.append('file', source, name);
    try {
      const verdict = await (await api('/v1/verify', { method: 'POST', body: form })).json();
      show(panel, curl, verdictNode(verdict));
    } catch (error) {
      show(panel, curl, problemNode(error));
    }
  });
}

// ---------------------------------------------------------------------------------------------

document.addEventListener('DOMContentLoaded', () => {
  showKeyStatus();
  $('register-form').addEventListener('submit', register());
  $('verify-code').addEventListener('click', verifyCode());
  $('code').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      $('verify-code').click();
    }
  });
  $('paste-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const key = $('pasted-key').value.trim();
    if (!/^qk_\S+$/.test(key)) {
      show(
        $('key-output'),
        '',
        problemNode(new Error('An API key begins with qk_ (from Verify code, or npm run key).')),
      );
      return;
    }
    useKey(key);
    $('pasted-key').value = '';
    show($('key-output'), '', element('p', { class: 'success', text: 'The key is kept for this tab.' }));
  });
  $('forget-key').addEventListener('click', () => {
    sessionStorage.removeItem(KEY_STORAGE);
    showKeyStatus();
  });
  $('convert-form').addEventListener('submit', convert());
  $('add-field').addEventListener('click', () => addFieldRow().querySelector('.field-id').focus());
  addFieldRow('name', 'Ada Lovelace');
  $('fill-form').addEventListener('submit', fill());
  $('sign-file').addEventListener('change', () => {
    $('source-upload').checked = true;
  });
  $('sign-form').addEventListener('submit', sign());
  $('verify-form').addEventListener('submit', verify());
});
