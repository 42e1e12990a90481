/**
 * GET /docs: a reference page rendered on the server from the OpenAPI document, so it needs no
 * script from a CDN, works offline and cannot drift from what the validators enforce. Per
 * operation: a curl sample built from the document, the parameters and bodies, the examples, and
 * the headers of each response. Its one script (a filter over the operations) and its style are
 * inline, allowed by their hashes in the page's Content-Security-Policy and nothing else.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const;
/** Schemas nest; references can cycle. Deeper than this is shown by name only. */
const MAX_SCHEMA_DEPTH = 6;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: Json | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The example of a media type: `example`, else the first of `examples`, else its schema's. */
function exampleOf(media: JsonObject, schema: JsonObject | undefined): Json | undefined {
  if (media.example !== undefined) return media.example;
  if (isObject(media.examples)) {
    const first = Object.values(media.examples).find(isObject);
    if (first?.value !== undefined) return first.value;
  }
  return schema?.example;
}

/** `text` as one POSIX shell word in single quotes (a ' inside as '\''). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A file name for a curl -F sample, from the first of the media types an `encoding` gives the part. */
function sampleFileName(contentTypes: string | undefined): string {
  const contentType = contentTypes?.split(',')[0]?.trim();
  if (contentType?.includes('wordprocessingml')) return 'document.docx';
  if (contentType?.includes('application/pdf')) return 'document.pdf';
  if (contentType?.startsWith('font/')) return 'font.ttf';
  return 'document';
}

class Renderer {
  private readonly doc: JsonObject;

  constructor(doc: JsonObject) {
    this.doc = doc;
  }

  private resolve(schema: JsonObject): { schema: JsonObject; name?: string } {
    const ref = str(schema.$ref);
    if (!ref?.startsWith('#/components/schemas/')) return { schema };
    const name = ref.slice('#/components/schemas/'.length);
    const components = this.doc.components;
    const schemas = isObject(components) ? components.schemas : undefined;
    const target = isObject(schemas) ? schemas[name] : undefined;
    return { schema: isObject(target) ? target : {}, name };
  }

  private typeLabel(schema: JsonObject, name?: string): string {
    const variants = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(variants)) {
      return variants
        .filter(isObject)
        .map((v) => {
          const r = this.resolve(v);
          return this.typeLabel(r.schema, r.name);
        })
        .join(' | ');
    }
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
    let type = Array.isArray(schema.type) ? schema.type.join(' | ') : (str(schema.type) ?? 'any');
    if (type === 'array' && isObject(schema.items)) {
      const r = this.resolve(schema.items);
      type = `array of ${this.typeLabel(r.schema, r.name)}`;
    }
    if (str(schema.format)) type += ` (${schema.format})`;
    return name ? `${name}: ${type}` : type;
  }

  private constraints(schema: JsonObject): string {
    const parts: string[] = [];
    const keys: [string, string][] = [
      ['minLength', 'min length'],
      ['maxLength', 'max length'],
      ['minimum', 'min'],
      ['maximum', 'max'],
      ['minItems', 'min items'],
      ['maxItems', 'max items'],
      ['pattern', 'pattern'],
      ['default', 'default'],
    ];
    for (const [key, label] of keys) {
      if (schema[key] !== undefined) parts.push(`${label} ${JSON.stringify(schema[key])}`);
    }
    return parts.join(', ');
  }

  schema(input: Json | undefined, depth = 0): string {
    if (!isObject(input)) return '';
    const { schema, name } = this.resolve(input);
    // An array of objects lists its items' fields, which is what a caller fills in.
    const items = isObject(schema.items) ? this.resolve(schema.items).schema : undefined;
    const holder = isObject(schema.properties) ? schema : items;
    const fields = holder && isObject(holder.properties) ? holder.properties : undefined;
    const required = new Set(
      (holder && Array.isArray(holder.required) ? holder.required : []).filter(
        (v): v is string => typeof v === 'string',
      ),
    );
    const head = `<code>${escapeHtml(this.typeLabel(schema, name))}</code>`;
    const description = str(schema.description) ? ` — ${escapeHtml(str(schema.description) ?? '')}` : '';
    if (!fields || depth >= MAX_SCHEMA_DEPTH) return `${head}${description}`;
    const rows = Object.entries(fields)
      .map(([field, sub]) => {
        const subSchema = isObject(sub) ? this.resolve(sub).schema : {};
        const extra = [required.has(field) ? 'required' : 'optional', this.constraints(subSchema)]
          .filter(Boolean)
          .join(', ');
        return `<li><code>${escapeHtml(field)}</code> <span class="meta">${escapeHtml(extra)}</span>: ${this.schema(sub, depth + 1)}</li>`;
      })
      .join('');
    return `${head}${description}<ul>${rows}</ul>`;
  }

  private parameters(params: Json | undefined): string {
    if (!Array.isArray(params) || params.length === 0) return '';
    const rows = params
      .filter(isObject)
      .map((p) => {
        const schema = isObject(p.schema) ? this.resolve(p.schema).schema : {};
        const description = str(p.description) ?? str(schema.description) ?? '';
        return `<tr><td><code>${escapeHtml(str(p.name) ?? '')}</code></td><td>${escapeHtml(str(p.in) ?? '')}</td><td>${
          p.required === true ? 'yes' : 'no'
        }</td><td><code>${escapeHtml(this.typeLabel(schema))}</code> ${escapeHtml(this.constraints(schema))}</td><td>${escapeHtml(description)}</td></tr>`;
      })
      .join('');
    return `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>type</th><th>description</th></tr>${rows}</table>`;
  }

  private content(content: Json | undefined): string {
    if (!isObject(content)) return '';
    return Object.entries(content)
      .map(
        ([type, media]) =>
          `<div class="media"><code>${escapeHtml(type)}</code> ${isObject(media) ? `${this.schema(media.schema)}${this.examples(media)}` : ''}</div>`,
      )
      .join('');
  }

  /** Each example of a media type, folded (an operation has several error examples). */
  private examples(media: JsonObject): string {
    const named: [string, Json][] = [];
    if (media.example !== undefined) named.push(['Example', media.example]);
    if (isObject(media.examples)) {
      for (const [name, example] of Object.entries(media.examples)) {
        if (isObject(example) && example.value !== undefined) {
          named.push([`Example: ${str(example.summary) ?? name}`, example.value]);
        }
      }
    }
    return named
      .map(
        ([label, value]) =>
          `<details class="example"><summary>${escapeHtml(label)}</summary><pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre></details>`,
      )
      .join('');
  }

  private resolveHeader(header: JsonObject): { header: JsonObject; name?: string } {
    const ref = str(header.$ref);
    if (!ref?.startsWith('#/components/headers/')) return { header };
    const name = ref.slice('#/components/headers/'.length);
    const headers = isObject(this.doc.components) ? this.doc.components.headers : undefined;
    const target = isObject(headers) ? headers[name] : undefined;
    return { header: isObject(target) ? target : {}, name };
  }

  /** A response's headers by name, each linked to its one description under "Response headers". */
  private responseHeaders(headers: Json | undefined): string {
    if (!isObject(headers) || Object.keys(headers).length === 0) return '';
    const names = Object.entries(headers).map(([name, header]) => {
      const { header: resolved } = isObject(header) ? this.resolveHeader(header) : { header: {} };
      const when = resolved.required === true ? '' : ' <span class="meta">(when set)</span>';
      return `<a href="#header-${escapeHtml(name)}"><code>${escapeHtml(name)}</code></a>${when}`;
    });
    return `<div class="headers">Headers: ${names.join(', ')}</div>`;
  }

  /** Every header of components.headers, described once. */
  private headerSection(): string {
    const headers = isObject(this.doc.components) ? this.doc.components.headers : undefined;
    if (!isObject(headers)) return '';
    const rows = Object.entries(headers)
      .filter((entry): entry is [string, JsonObject] => isObject(entry[1]))
      .map(
        ([name, header]) =>
          `<tr id="header-${escapeHtml(name)}"><td><code>${escapeHtml(name)}</code></td><td><code>${escapeHtml(
            isObject(header.schema) ? this.typeLabel(header.schema) : 'string',
          )}</code></td><td>${escapeHtml(str(header.description) ?? '')}${
            header.example !== undefined ? ` <span class="meta">e.g. ${escapeHtml(String(header.example))}</span>` : ''
          }</td></tr>`,
      )
      .join('');
    return `<h2 id="response-headers">Response headers</h2><table><tr><th>header</th><th>type</th><th>meaning</th></tr>${rows}</table>`;
  }

  /**
   * curl samples for an operation, one per request content type: the method, the path with its
   * required query parameters (their examples), the key when the operation needs one, and the body
   * (-F per required file part of a multipart body, -d with the JSON example).
   */
  curlSamples(path: string, method: string, op: JsonObject): string[] {
    const query = (Array.isArray(op.parameters) ? op.parameters : [])
      .filter(isObject)
      .filter((p) => p.in === 'query' && p.required === true)
      .map((p) => {
        const schema = isObject(p.schema) ? p.schema : {};
        const value = p.example ?? schema.example ?? `<${str(p.name)}>`;
        // RFC 3986 §3.4: @ may stand as it is in a query, and reads better so.
        return `${encodeURIComponent(str(p.name) ?? '')}=${encodeURIComponent(String(value)).replace(/%40/g, '@')}`;
      });
    const url = `"$QUIRE_URL${path}${query.length ? `?${query.join('&')}` : ''}"`;
    const security = Array.isArray(op.security) ? op.security : this.doc.security;
    const auth = Array.isArray(security) && security.length > 0 ? ['-H "Authorization: Bearer $QUIRE_KEY"'] : [];
    const ok = isObject(op.responses) ? op.responses['200'] : undefined;
    const answers = isObject(ok) && isObject(ok.content) ? Object.keys(ok.content) : [];
    // The file itself, when the answer can be one: saved under the name Content-Disposition gives
    // (-OJ). Where JSON is the other answer (sign, annotate), JSON is what comes without Accept,
    // so the upload's sample asks for the file (docs/api.md "Accept").
    const fileAnswer = answers.find((type) => !type.includes('json'));
    const jsonAnswer = answers.some((type) => type.includes('json'));
    const jsonRequest = Object.entries(
      isObject(op.requestBody) && isObject(op.requestBody.content) ? op.requestBody.content : {},
    ).find(([type]) => type.includes('json'))?.[1];
    const jsonExample = isObject(jsonRequest)
      ? exampleOf(jsonRequest, isObject(jsonRequest.schema) ? this.resolve(jsonRequest.schema).schema : undefined)
      : undefined;
    const head = method === 'head' ? ['curl -I'] : ['curl'];
    const bodies = isObject(op.requestBody) && isObject(op.requestBody.content) ? op.requestBody.content : {};
    const samples = Object.entries(bodies).map(([type, media]) => {
      const lines = [...head];
      lines[0] += ` ${url}`;
      lines.push(...auth);
      if (!isObject(media)) return lines;
      const schema = isObject(media.schema) ? this.resolve(media.schema).schema : undefined;
      if (type === 'multipart/form-data') {
        const required = Array.isArray(schema?.required) ? schema.required.filter((v) => typeof v === 'string') : [];
        const encoding = isObject(media.encoding) ? media.encoding : {};
        const properties = isObject(schema?.properties) ? schema.properties : {};
        for (const part of required) {
          const property = properties[part as string];
          const partEncoding = encoding[part as string];
          if (isObject(property) && property.format !== 'binary') {
            // A text part: the JSON body's example of the same field, as the form carries it
            // (a string as it is, anything else as JSON text).
            const value = isObject(jsonExample) ? jsonExample[part as string] : undefined;
            const text = value === undefined ? `<${part}>` : typeof value === 'string' ? value : JSON.stringify(value);
            lines.push(`-F ${part}=${shellQuote(text)}`);
            continue;
          }
          lines.push(
            `-F ${part}=@${sampleFileName(isObject(partEncoding) ? str(partEncoding.contentType) : undefined)}`,
          );
        }
        if (fileAnswer && jsonAnswer) lines.push(`-H 'Accept: ${fileAnswer}'`);
        if (fileAnswer) lines.push('-OJ');
      } else if (type.includes('json')) {
        const example = exampleOf(media, schema);
        lines.push(`-H 'Content-Type: ${type}'`);
        lines.push(example === undefined ? '-d @request.json' : `-d ${shellQuote(JSON.stringify(example))}`);
        if (fileAnswer && !jsonAnswer) lines.push('-OJ');
      } else {
        lines.push(`-H 'Content-Type: ${type}'`, '--data-binary @document');
        if (fileAnswer && !jsonAnswer) lines.push('-OJ');
      }
      return lines;
    });
    if (samples.length === 0) {
      const lines = [...head];
      lines[0] += `${method === 'get' || method === 'head' ? '' : ` -X ${method.toUpperCase()}`} ${url}`;
      lines.push(...auth);
      samples.push(lines);
    }
    return samples.map((lines) => lines.join(' \\\n  '));
  }

  private operation(path: string, method: string, op: JsonObject): string {
    const id = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
    const curl = this.curlSamples(path, method, op)
      .map((sample) => `<pre class="curl">${escapeHtml(sample)}</pre>`)
      .join('');
    const operationId = str(op.operationId) ?? '';
    const search = searchText(path, method, op);
    const body = isObject(op.requestBody)
      ? `<h4>Request body${op.requestBody.required === true ? '' : ' (optional)'}</h4>${this.content(op.requestBody.content)}`
      : '';
    const responses = isObject(op.responses)
      ? `<h4>Responses</h4><ul>${Object.entries(op.responses)
          .map(([status, r]) =>
            isObject(r)
              ? `<li><strong>${escapeHtml(status)}</strong> ${escapeHtml(str(r.description) ?? '')}${this.responseHeaders(r.headers)}${this.content(r.content)}</li>`
              : '',
          )
          .join('')}</ul>`
      : '';
    return `<section id="${id}" class="operation" data-search="${escapeHtml(search)}"><h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> <span class="meta">${escapeHtml(operationId)}</span></h3>${
      str(op.summary) ? `<p><strong>${escapeHtml(str(op.summary) ?? '')}</strong></p>` : ''
    }${str(op.description) ? `<p>${escapeHtml(str(op.description) ?? '')}</p>` : ''}<h4>Try it</h4>${curl}<p><a href="/playground#${escapeHtml(
      operationId,
    )}">Open in the playground</a></p>${this.parameters(op.parameters)}${body}${responses}</section>`;
  }

  page(): string {
    const info = isObject(this.doc.info) ? this.doc.info : {};
    const paths = isObject(this.doc.paths) ? this.doc.paths : {};
    const operations: { path: string; method: string; op: JsonObject }[] = [];
    for (const path of Object.keys(paths).sort()) {
      const item = paths[path];
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const op = item[method];
        if (isObject(op)) operations.push({ path, method, op });
      }
    }
    const toc = operations
      .map(({ path, method, op }) => {
        const id = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
        return `<li data-search="${escapeHtml(searchText(path, method, op))}"><a href="#${id}"><span class="method ${method}">${method.toUpperCase()}</span> ${escapeHtml(path)}</a> ${escapeHtml(
          str(op.summary) ?? '',
        )}</li>`;
      })
      .join('');
    const title = escapeHtml(str(info.title) ?? 'API');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} reference</title>
<style>${STYLE}</style></head><body>
<h1>${title} <small>${escapeHtml(str(info.version) ?? '')}</small></h1>
<p>${escapeHtml(str(info.description) ?? '')}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Interactive: <a href="/playground">/playground</a>, to send requests from the browser.</p>
<p>The curl samples read two shell variables: <code>QUIRE_URL</code>, this deployment's origin, and <code>QUIRE_KEY</code>, an API key (qk_…) from /v1/auth/verify.</p>
<h2>Endpoints</h2>
<input type="search" id="filter" placeholder="Filter operations (path, method, name, tag)" aria-label="Filter operations" hidden>
<ul>${toc}</ul>
${operations.map(({ path, method, op }) => this.operation(path, method, op)).join('\n')}
${this.headerSection()}
<script>${SCRIPT}</script>
</body></html>`;
  }
}

/** What the filter box matches: method, path, operationId, summary and tags, lower-cased. */
function searchText(path: string, method: string, op: JsonObject): string {
  return [method, path, str(op.operationId) ?? '', str(op.summary) ?? '', ...(Array.isArray(op.tags) ? op.tags : [])]
    .join(' ')
    .toLowerCase();
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code,pre{font:13px ui-monospace,monospace}code{background:#f3f3f3;padding:0 .25em;border-radius:3px}
pre{background:#f6f6f6;padding:.5em .75em;border-radius:3px;overflow:auto;margin:.3rem 0}
section{border-top:1px solid #ddd;padding-top:.5rem;margin-top:1.5rem}
.method{font:bold 12px ui-monospace,monospace;padding:.1em .4em;border-radius:3px;color:#fff;background:#555}
.get{background:#2b7a3d}.post{background:#1f5fa8}.delete{background:#a83232}.head{background:#6a6a6a}
.meta{color:#666;font-size:13px}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}
ul{margin:.2rem 0}.headers{font-size:13px}summary{cursor:pointer;font-size:13px}
#filter{width:100%;max-width:30rem;font:inherit;padding:.3em .5em;margin:.3rem 0}
`;

/** The filter box: shown only where script runs; hides the operations (and their index entries) that do not match every word. */
const SCRIPT = `
const box = document.getElementById('filter');
box.hidden = false;
box.addEventListener('input', () => {
  const words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
  for (const el of document.querySelectorAll('[data-search]')) {
    el.hidden = !words.every((word) => el.dataset.search.includes(word));
  }
});
`;

/** A CSP source for an inline element's exact text (CSP 3 §8.4, hash-source). */
async function hashSource(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

/**
 * The page and its Content-Security-Policy: nothing may load or run but the page's own inline
 * style and script, named by hash, so an injection into the page (were escaping ever to fail)
 * could not run; no frames, forms or base URL.
 */
export async function renderReferencePage(openApiDocument: object): Promise<{ html: string; csp: string }> {
  // The generator's output is plain JSON; reading it as such keeps this module independent of its types.
  const html = new Renderer(JSON.parse(JSON.stringify(openApiDocument)) as JsonObject).page();
  const csp = [
    "default-src 'none'",
    `script-src ${await hashSource(SCRIPT)}`,
    `style-src ${await hashSource(STYLE)}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}
