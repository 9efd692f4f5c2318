/**
 * GET {site_url}/docs: the API reference, rendered on the server from the same OpenAPI document as
 * /openapi.json. Self-contained (inline CSS, no script, nothing fetched), so it works offline.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/context.ts";
import { type OpenApiDocument, openApiDocumentOf, withOrigin } from "../openapi-spec.ts";
import { OPENAPI_DOCUMENT_PATH } from "./openapi-document.ts";

/** Where the reference page is served, at the site root. */
export const API_REFERENCE_PATH = "/docs";

type Components = NonNullable<OpenApiDocument["components"]>;
type SchemaOrRef = NonNullable<Components["schemas"]>[string];
type PathItem = NonNullable<OpenApiDocument["paths"]>[string];
type Operation = NonNullable<PathItem["get"]>;
type Parameter = Exclude<NonNullable<Operation["parameters"]>[number], { $ref: string }>;
type MediaTypes = Record<string, { schema?: SchemaOrRef }>;

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
const SCHEMA_REF_PREFIX = "#/components/schemas/";

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;color:#1d2430;max-width:60rem;margin:0 auto;padding:1rem 1.25rem 4rem}
h1{margin-bottom:.25rem}h2{border-bottom:2px solid #d8dee8;padding-bottom:.25rem;margin-top:2.5rem}
h3{margin:2rem 0 .25rem;font-size:1.1rem}h4{margin:1rem 0 .25rem;font-size:.95rem;color:#46505e}
code{font:.9em ui-monospace,monospace;background:#f1f4f8;padding:0 .25em;border-radius:3px}
a{color:#1857b6}.muted{color:#5d6775}.op{border-left:3px solid #d8dee8;padding-left:1rem}
.method{display:inline-block;min-width:3.6em;text-align:center;font:700 .8rem ui-monospace,monospace;color:#fff;background:#5d6775;border-radius:3px;padding:.1em .4em;margin-right:.4em;text-transform:uppercase}
.get{background:#1f7a4d}.post{background:#1857b6}.put,.patch{background:#9a5b00}.delete{background:#b3261e}
table{border-collapse:collapse;width:100%;font-size:.92rem}th,td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid #e3e8ef}
ul.props{margin:.25rem 0;padding-left:1.25rem;font-size:.92rem}ul.props li{margin:.15rem 0}
.type{color:#6a3fb5;font-family:ui-monospace,monospace;font-size:.88em}.req{color:#b3261e;font-size:.8em}
nav ul{columns:2;padding-left:1.25rem}
`;

/** Escapes text for HTML element content and double-quoted attributes. */
function escapeHtml(value: unknown): string {
  return String(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** Escaped prose, with the document's `code` spans kept as code (backticks survive escaping). */
function prose(text: string | undefined): string {
  return text ? escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>") : "";
}

function isRef(value: object): value is { $ref: string } {
  return "$ref" in value;
}

function schemaAnchor(name: string): string {
  return `schema-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

function refLink(ref: string): string {
  const name = ref.startsWith(SCHEMA_REF_PREFIX) ? ref.slice(SCHEMA_REF_PREFIX.length) : ref;
  return `<a href="#${escapeHtml(schemaAnchor(name))}">${escapeHtml(name)}</a>`;
}

function jsonValue(value: unknown): string {
  return `<code>${escapeHtml(JSON.stringify(value))}</code>`;
}

/** Bounds and patterns, as short text after the type. */
function constraints(schema: Exclude<SchemaOrRef, { $ref: string }>): string {
  const parts: string[] = [];
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) parts.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`);
  if (schema.maxItems !== undefined) parts.push(`at most ${schema.maxItems} items`);
  if (schema.pattern !== undefined) parts.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if (schema.enum) parts.push(`one of ${schema.enum.map(jsonValue).join(", ")}`);
  if (schema.const !== undefined) parts.push(`always ${jsonValue(schema.const)}`);
  if (schema.default !== undefined) parts.push(`default ${jsonValue(schema.default)}`);
  return parts.length ? ` <span class="muted">(${parts.join("; ")})</span>` : "";
}

/** A one-line type label: a link for a named schema, otherwise type, format and constraints. */
function typeLabel(schema: SchemaOrRef): string {
  if (isRef(schema)) return refLink(schema.$ref);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map(typeLabel).join(" | ") + constraints(schema);
  if (schema.allOf) {
    // A part that only annotates (zod's description beside a $ref) is no type of its own.
    const typed = schema.allOf.filter((part) => isRef(part) || part.type || part.properties || part.allOf);
    return typed.map(typeLabel).join(" &amp; ") + constraints(schema);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ["any"];
  const label = types
    .map((type) => {
      if (type === "array" && schema.items) return `array of ${typeLabel(schema.items)}`;
      if (type === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object") {
        return schema.properties ? "object" : `map of string → ${typeLabel(schema.additionalProperties)}`;
      }
      return escapeHtml(schema.format ? `${type} (${schema.format})` : type);
    })
    .join(" | ");
  return `<span class="type">${label}</span>${constraints(schema)}`;
}

/** The members of an inline schema (object properties, array items, map values), nested. */
function members(schema: SchemaOrRef): string {
  if (isRef(schema)) return "";
  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    const items = Object.entries(schema.properties).map(([name, property]) => {
      const description = descriptionOf(property);
      return `<li><code>${escapeHtml(name)}</code> ${typeLabel(property)} ${
        required.has(name) ? '<span class="req">required</span>' : '<span class="muted">optional</span>'
      }${description ? ` — ${prose(description)}` : ""}${members(property)}</li>`;
    });
    const closed = schema.additionalProperties === false ? '<li class="muted">No other fields.</li>' : "";
    return `<ul class="props">${items.join("")}${closed}</ul>`;
  }
  if (schema.items) return members(schema.items);
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
    return members(schema.additionalProperties);
  }
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].map(members).join("");
}

/** A schema's own description, or that of the annotation beside its $ref. */
function descriptionOf(schema: SchemaOrRef): string | undefined {
  if (isRef(schema)) return undefined;
  return schema.description ?? schema.allOf?.map(descriptionOf).find(Boolean);
}

function renderSchema(schema: SchemaOrRef | undefined): string {
  if (!schema) return "";
  const description = descriptionOf(schema) ? ` — ${prose(descriptionOf(schema))}` : "";
  return `${typeLabel(schema)}${description}${members(schema)}`;
}

function renderContent(content: MediaTypes | undefined): string {
  return Object.entries(content ?? {})
    .map(([mediaType, media]) => `<div><code>${escapeHtml(mediaType)}</code> ${renderSchema(media.schema)}</div>`)
    .join("");
}

function renderParameters(parameters: Operation["parameters"]): string {
  const list = (parameters ?? []).filter((parameter): parameter is Parameter => !isRef(parameter));
  if (!list.length) return "";
  const rows = list.map((parameter) => {
    const schema = parameter.schema;
    const description = parameter.description ?? (schema && !isRef(schema) ? schema.description : undefined);
    return `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${escapeHtml(parameter.in)}</td><td>${
      schema ? typeLabel(schema) : ""
    }</td><td>${parameter.required ? '<span class="req">required</span>' : "optional"}</td><td>${prose(description)}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function renderSecurity(security: Operation["security"]): string {
  if (!security) return "";
  const schemes = security.flatMap((requirement) => Object.keys(requirement));
  return `<p class="muted">Authentication: ${
    schemes.length ? schemes.map((name) => `<a href="#auth">${escapeHtml(name)}</a>`).join(" or ") : "none (public)"
  }</p>`;
}

function renderOperation(method: string, path: string, operation: Operation): string {
  const id = escapeHtml(`op-${operation.operationId ?? `${method}-${path}`}`);
  const body = operation.requestBody && !isRef(operation.requestBody) ? operation.requestBody : undefined;
  const responses = Object.entries(operation.responses ?? {}).map(([status, response]) => {
    if (isRef(response)) return `<tr><td>${escapeHtml(status)}</td><td>${refLink(response.$ref)}</td><td></td></tr>`;
    return `<tr><td><code>${escapeHtml(status)}</code></td><td>${prose(response.description)}</td><td>${renderContent(
      response.content as MediaTypes | undefined,
    )}</td></tr>`;
  });
  return [
    `<section class="op" id="${id}">`,
    `<h3><span class="method ${escapeHtml(method)}">${escapeHtml(method)}</span><code>${escapeHtml(path)}</code></h3>`,
    `<p><strong>${prose(operation.summary)}</strong></p>`,
    operation.description ? `<p>${prose(operation.description)}</p>` : "",
    `<p class="muted">operationId <code>${escapeHtml(operation.operationId ?? "")}</code></p>`,
    renderSecurity(operation.security),
    renderParameters(operation.parameters),
    body
      ? `<h4>Request body${body.required ? ' <span class="req">required</span>' : ""}</h4>${renderContent(
          body.content as MediaTypes,
        )}`
      : "",
    `<h4>Responses</h4><table><thead><tr><th>Status</th><th>Description</th><th>Body</th></tr></thead><tbody>${responses.join("")}</tbody></table>`,
    "</section>",
  ].join("");
}

/** Operations grouped by their first tag, in document order. */
function operationsByTag(
  document: OpenApiDocument,
): Map<string, { method: string; path: string; operation: Operation }[]> {
  const byTag = new Map<string, { method: string; path: string; operation: Operation }[]>();
  for (const tag of document.tags ?? []) byTag.set(tag.name, []);
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? "other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)?.push({ method, path, operation });
    }
  }
  return byTag;
}

/** The whole reference page for a document (as served from one origin). */
export function renderApiReference(document: OpenApiDocument): string {
  const byTag = operationsByTag(document);
  const tagDescriptions = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
  const baseUrl = document.servers?.[0]?.url ?? "";
  const title = `${document.info.title} API ${document.info.version}`;

  const toc = [...byTag]
    .map(
      ([tag, operations]) =>
        `<li><a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a><ul>${operations
          .map(
            ({ method, path, operation }) =>
              `<li><a href="#${escapeHtml(`op-${operation.operationId ?? `${method}-${path}`}`)}">${escapeHtml(
                method.toUpperCase(),
              )} ${escapeHtml(path)}</a></li>`,
          )
          .join("")}</ul></li>`,
    )
    .join("");

  const sections = [...byTag]
    .map(
      ([tag, operations]) =>
        `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${
          tagDescriptions.get(tag) ? `<p>${prose(tagDescriptions.get(tag))}</p>` : ""
        }${operations.map(({ method, path, operation }) => renderOperation(method, path, operation)).join("")}`,
    )
    .join("");

  const schemes = Object.entries(document.components?.securitySchemes ?? {})
    .map(([name, scheme]) =>
      isRef(scheme)
        ? ""
        : `<li><code>${escapeHtml(name)}</code>: ${escapeHtml(scheme.type)}${
            scheme.type === "apiKey" ? ` in ${escapeHtml(scheme.in)} <code>${escapeHtml(scheme.name)}</code>` : ""
          }${scheme.description ? ` — ${prose(scheme.description)}` : ""}</li>`,
    )
    .join("");

  const schemas = Object.entries(document.components?.schemas ?? {})
    .map(
      ([name, schema]) =>
        `<section id="${escapeHtml(schemaAnchor(name))}"><h3>${escapeHtml(name)}</h3>${renderSchema(schema)}</section>`,
    )
    .join("");

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(title)}</h1>
${(document.info.description ?? "")
  .split("\n\n")
  .map((paragraph) => `<p>${prose(paragraph)}</p>`)
  .join("")}
<p>Base URL: <code>${escapeHtml(baseUrl)}</code> (every path below is relative to it).
Machine-readable: <a href="${OPENAPI_DOCUMENT_PATH}">OpenAPI 3.1 document (${OPENAPI_DOCUMENT_PATH})</a>.</p>
<nav><h2>Operations</h2><ul>${toc}</ul></nav></header>
<main>${sections}
<h2 id="auth">Authentication</h2><p>Operations marked public need no credentials; the others name one of these schemes.</p><ul>${schemes}</ul>
<h2 id="schemas">Schemas</h2>${schemas}</main>
<footer><p class="muted">Generated from the service's route definitions, like <a href="${OPENAPI_DOCUMENT_PATH}">${OPENAPI_DOCUMENT_PATH}</a>.</p></footer>
</body></html>`;
}

/** Serves the reference of the whole service (the app's catalog), cached like the document. */
export function registerApiReference(app: OpenAPIHono<AppEnv>) {
  app.get(API_REFERENCE_PATH, (c) => {
    const document = withOrigin(openApiDocumentOf(c.var.catalog), c.var.deps.origin);
    c.header("Cache-Control", "public, max-age=300");
    // Nothing but inline style: no script, no outside resource, no framing.
    c.header(
      "Content-Security-Policy",
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    return c.html(renderApiReference(document), 200);
  });
}
