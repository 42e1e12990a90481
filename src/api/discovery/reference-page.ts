/**
 * GET /docs: a reference page rendered on the server from the OpenAPI document, so it needs no
 * script from a CDN, works offline and cannot drift from what the validators enforce.
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
          `<div class="media"><code>${escapeHtml(type)}</code> ${isObject(media) ? this.schema(media.schema) : ''}</div>`,
      )
      .join('');
  }

  private operation(path: string, method: string, op: JsonObject): string {
    const id = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
    const body = isObject(op.requestBody)
      ? `<h4>Request body${op.requestBody.required === true ? '' : ' (optional)'}</h4>${this.content(op.requestBody.content)}`
      : '';
    const responses = isObject(op.responses)
      ? `<h4>Responses</h4><ul>${Object.entries(op.responses)
          .map(([status, r]) =>
            isObject(r)
              ? `<li><strong>${escapeHtml(status)}</strong> ${escapeHtml(str(r.description) ?? '')}${this.content(r.content)}</li>`
              : '',
          )
          .join('')}</ul>`
      : '';
    return `<section id="${id}"><h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>${
      str(op.summary) ? `<p><strong>${escapeHtml(str(op.summary) ?? '')}</strong></p>` : ''
    }${str(op.description) ? `<p>${escapeHtml(str(op.description) ?? '')}</p>` : ''}${this.parameters(op.parameters)}${body}${responses}</section>`;
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
        return `<li><a href="#${id}"><span class="method ${method}">${method.toUpperCase()}</span> ${escapeHtml(path)}</a> ${escapeHtml(
          str(op.summary) ?? '',
        )}</li>`;
      })
      .join('');
    const title = escapeHtml(str(info.title) ?? 'API');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code{font:13px ui-monospace,monospace;background:#f3f3f3;padding:0 .25em;border-radius:3px}
section{border-top:1px solid #ddd;padding-top:.5rem;margin-top:1.5rem}
.method{font:bold 12px ui-monospace,monospace;padding:.1em .4em;border-radius:3px;color:#fff;background:#555}
.get{background:#2b7a3d}.post{background:#1f5fa8}.delete{background:#a83232}.head{background:#6a6a6a}
.meta{color:#666;font-size:13px}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}
ul{margin:.2rem 0}
</style></head><body>
<h1>${title} <small>${escapeHtml(str(info.version) ?? '')}</small></h1>
<p>${escapeHtml(str(info.description) ?? '')}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<h2>Endpoints</h2><ul>${toc}</ul>
${operations.map(({ path, method, op }) => this.operation(path, method, op)).join('\n')}
</body></html>`;
  }
}

export function renderReferencePage(openApiDocument: object): string {
  // The generator's output is plain JSON; reading it as such keeps this module independent of its types.
  return new Renderer(JSON.parse(JSON.stringify(openApiDocument)) as JsonObject).page();
}
