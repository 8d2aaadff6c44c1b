import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH, buildOpenApiDocument } from '../../src/domain/contract/openapi.ts';
import * as operations from '../../src/domain/contract/service.ts';
import { PreparedJson } from '../prepared-answer.ts';
import { route } from './operation-route.ts';
import { escapeHtml } from '../../src/domain/html-text.ts';

/**
 * The API reference, generated from the contract (src/domain/contract/operations.ts and the
 * structs): GET openapi.json (OpenAPI 3.1) and GET reference, a static HTML page made here from
 * the same document (no script: the app's CSP runs only its own). Built on the first request
 * and kept: generating takes a few hundred milliseconds that no start-up should pay.
 */
let built: { json: PreparedJson; html: string } | null = null;
function reference(): { json: PreparedJson; html: string } {
  if (!built) {
    const document = buildOpenApiDocument();
    // Compressed once per encoding: the document (≈ 140 KB) is public and would otherwise cost
    // 1.4–2 ms of compression on every request.
    built = { json: new PreparedJson(JSON.stringify(document)), html: renderReference(document) };
  }
  return built;
}

export default async function apiReferenceRoutes(app: FastifyInstance) {
  route(app, operations.getOpenApiDocument, async (_, request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return reference().json.send(request, reply);
  });

  route(app, operations.getReference, async (_, _request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300').type('text/html; charset=utf-8');
    return reply.send(reference().html);
  });
}

type Json = Record<string, unknown>;

/** `code` spans of the reference's prose as <code>. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const anchor = (text: string) => text.replace(/[^A-Za-z0-9]+/g, '-');

/** A schema as indented JSON, with each $ref a link to its schema below. */
function schemaHtml(schema: unknown): string {
  const text = escapeHtml(JSON.stringify(schema, null, 2));
  return `<pre>${text.replace(/&quot;#\/components\/schemas\/([A-Za-z0-9_]+)&quot;/g, (_m, name: string) => `&quot;<a href="#schema-${name}">#/components/schemas/${name}</a>&quot;`)}</pre>`;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function renderReference(document: Json): string {
  const info = document.info as { title: string; version: string; description: string };
  const paths = document.paths as Record<string, Record<string, Json>>;
  const tags = document.tags as { name: string; description: string }[];
  const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
  const byTag = new Map<string, { method: string; path: string; operation: Json }[]>(tags.map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = (operation.tags as string[])[0]!;
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, operation });
    }
  }

  const sections: string[] = [];
  const toc: string[] = [];
  for (const tag of byTag.keys()) {
    const operations = byTag.get(tag)!;
    if (!operations.length) continue;
    const description = tags.find((t) => t.name === tag)?.description ?? '';
    toc.push(`<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a></li>`);
    const items = operations.map(({ method, path, operation }) => {
      const id = operation.operationId as string;
      const parameters = (operation.parameters as Json[] | undefined) ?? [];
      const body = (operation.requestBody as { content: Record<string, { schema: unknown }> } | undefined)?.content['application/json']?.schema;
      const responses = operation.responses as Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
      const parameterRows = parameters
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
        )
        .join('');
      const responseRows = Object.entries(responses)
        .map(([status, answer]) => {
          const [type, content] = Object.entries(answer.content ?? {})[0] ?? [];
          const shape = content ? (type === 'application/json' ? schemaHtml(content.schema) : `<code>${escapeHtml(type!)}</code>`) : '';
          return `<tr><td><b>${status}</b></td><td>${prose(answer.description)}</td><td>${shape}</td></tr>`;
        })
        .join('');
      return `<article id="op-${escapeHtml(id)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(API_BASE_PATH + path)}</code></h3>
<p>${prose(String(operation.summary))}</p>
<p class="who">${prose(String(operation.description ?? ''))}</p>
${parameters.length ? `<table><caption>Parameters</caption><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${parameterRows}</table>` : ''}
${body ? `<h4>Request body (JSON)</h4>${schemaHtml(body)}` : ''}
<table><caption>Answers</caption><tr><th>status</th><th>meaning</th><th>body</th></tr>${responseRows}</table>
</article>`;
    });
    sections.push(`<section id="tag-${anchor(tag)}"><h2>${escapeHtml(tag)}</h2><p>${prose(description)}</p>${items.join('\n')}</section>`);
  }
  const schemaSections = Object.entries(schemas).map(
    ([name, schema]) => `<article id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${schemaHtml(schema)}</article>`,
  );

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 1rem 2rem; color: #1d2330; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { background: #f4f6f9; padding: .6rem; overflow: auto; max-height: 28rem; margin: .3rem 0; }
article { border-top: 1px solid #dde2ea; padding: .5rem 0 1rem; }
h3 { margin: .4rem 0; font-size: 1.05rem; }
.method { display: inline-block; min-width: 4.5rem; padding: 0 .4rem; border-radius: 4px; color: #fff; font-size: .85rem; text-align: center; }
.get { background: #2f7d4a; } .post { background: #2857a4; } .put { background: #8a5a00; } .patch { background: #6b4aa6; } .delete { background: #b03a2e; }
.who { color: #4a5365; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0; }
caption { text-align: left; font-weight: 600; }
td, th { border: 1px solid #dde2ea; padding: .25rem .5rem; vertical-align: top; text-align: left; }
</style>
</head>
<body>
<h1>${escapeHtml(info.title)} <small>v${escapeHtml(info.version)}</small></h1>
<p>${prose(info.description)} Base path <code>${API_BASE_PATH}</code>. The same as OpenAPI 3.1: <a href="${API_BASE_PATH}/openapi.json">openapi.json</a>.</p>
<nav><ul>${toc.join('')}<li><a href="#schemas">Schemas</a></li></ul></nav>
${sections.join('\n')}
<section id="schemas"><h2>Schemas</h2>${schemaSections.join('\n')}</section>
</body>
</html>
`;
}
