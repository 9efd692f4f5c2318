/**
 * The API reference page, rendered on the server from the same OpenAPI document as /openapi.json:
 * every operation grouped by tag with its parameters, body and answers, the authentication
 * schemes, and every named schema. Self-contained (the layout's inline CSS, no script, nothing
 * fetched), so it works offline. Everything the document says is shown as text.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Child } from "hono/jsx";
import { buildSiteLinks, SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import { StackingTable } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

/** The OpenAPI 3.1 document the route hands this page (as `/openapi.json` serves it). */
export type OpenApiDocument = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

type Components = NonNullable<OpenApiDocument["components"]>;
type SchemaOrRef = NonNullable<Components["schemas"]>[string];
type Schema = Exclude<SchemaOrRef, { $ref: string }>;
type PathItem = NonNullable<OpenApiDocument["paths"]>[string];
type Operation = NonNullable<PathItem["get"]>;
type Parameter = Exclude<NonNullable<Operation["parameters"]>[number], { $ref: string }>;
type MediaTypes = Record<string, { schema?: SchemaOrRef }>;
type TaggedOperation = { method: string; path: string; operation: Operation };

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
const SCHEMA_REF_PREFIX = "#/components/schemas/";

function isRef(value: object): value is { $ref: string } {
  return "$ref" in value;
}

/** Nodes with a separator between each two. */
function joinNodes(nodes: Child[], separator: Child): Child[] {
  return nodes.flatMap((node, i) => (i === 0 ? [node] : [separator, node]));
}

/** The document's prose, with its `code` spans shown as code. */
function Prose({ text }: { text: string | undefined }) {
  if (!text) return null;
  // Splitting on a captured group alternates plain text (even) and code (odd).
  const parts = text.split(/`([^`]+)`/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code>{part}</code> : part))}</>;
}

function schemaAnchor(name: string): string {
  return `schema-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

function operationAnchor({ method, path, operation }: TaggedOperation): string {
  return `op-${operation.operationId ?? `${method}-${path}`}`;
}

function RefLink({ target }: { target: string }) {
  const name = target.startsWith(SCHEMA_REF_PREFIX) ? target.slice(SCHEMA_REF_PREFIX.length) : target;
  return <a href={`#${schemaAnchor(name)}`}>{name}</a>;
}

function JsonValue({ value }: { value: unknown }) {
  return <code>{JSON.stringify(value)}</code>;
}

/** Bounds and patterns, as short text after the type. */
function Constraints({ schema }: { schema: Schema }) {
  const parts: Child[] = [];
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) parts.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`);
  if (schema.maxItems !== undefined) parts.push(`at most ${schema.maxItems} items`);
  if (schema.pattern !== undefined) {
    parts.push(
      <>
        pattern <code>{schema.pattern}</code>
      </>,
    );
  }
  if (schema.enum) {
    parts.push(
      <>
        one of{" "}
        {joinNodes(
          schema.enum.map((value) => <JsonValue value={value} />),
          ", ",
        )}
      </>,
    );
  }
  if (schema.const !== undefined) {
    parts.push(
      <>
        always <JsonValue value={schema.const} />
      </>,
    );
  }
  if (schema.default !== undefined) {
    parts.push(
      <>
        default <JsonValue value={schema.default} />
      </>,
    );
  }
  if (!parts.length) return null;
  return (
    <>
      {" "}
      <span class="muted">({joinNodes(parts, "; ")})</span>
    </>
  );
}

/** A one-line type label: a link for a named schema, otherwise type, format and constraints. */
function TypeLabel({ schema }: { schema: SchemaOrRef }): Child {
  if (isRef(schema)) return <RefLink target={schema.$ref} />;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    return (
      <>
        {joinNodes(
          alternatives.map((alternative) => <TypeLabel schema={alternative} />),
          " | ",
        )}
        <Constraints schema={schema} />
      </>
    );
  }
  if (schema.allOf) {
    // A part that only annotates (zod's description beside a $ref) is no type of its own.
    const typed = schema.allOf.filter((part) => isRef(part) || part.type || part.properties || part.allOf);
    return (
      <>
        {joinNodes(
          typed.map((part) => <TypeLabel schema={part} />),
          " & ",
        )}
        <Constraints schema={schema} />
      </>
    );
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ["any"];
  const labels = types.map((type): Child => {
    if (type === "array" && schema.items) {
      return (
        <>
          array of <TypeLabel schema={schema.items} />
        </>
      );
    }
    if (type === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object") {
      if (schema.properties) return "object";
      return (
        <>
          map of string → <TypeLabel schema={schema.additionalProperties} />
        </>
      );
    }
    return schema.format ? `${type} (${schema.format})` : type;
  });
  return (
    <>
      <span class="type">{joinNodes(labels, " | ")}</span>
      <Constraints schema={schema} />
    </>
  );
}

/** A schema's own description, or that of the annotation beside its $ref. */
function descriptionOf(schema: SchemaOrRef): string | undefined {
  if (isRef(schema)) return undefined;
  return schema.description ?? schema.allOf?.map(descriptionOf).find(Boolean);
}

/** The members of an inline schema (object properties, array items, map values), nested. */
function Members({ schema }: { schema: SchemaOrRef }): Child {
  if (isRef(schema)) return null;
  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    return (
      <ul class="props">
        {Object.entries(schema.properties).map(([name, property]) => {
          const description = descriptionOf(property);
          return (
            <li>
              <code>{name}</code> <TypeLabel schema={property} />{" "}
              {required.has(name) ? <span class="req">required</span> : <span class="muted">optional</span>}
              {description ? (
                <>
                  {" — "}
                  <Prose text={description} />
                </>
              ) : null}
              <Members schema={property} />
            </li>
          );
        })}
        {schema.additionalProperties === false ? <li class="muted">No other fields.</li> : null}
      </ul>
    );
  }
  if (schema.items) return <Members schema={schema.items} />;
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
    return <Members schema={schema.additionalProperties} />;
  }
  const parts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  return (
    <>
      {parts.map((part) => (
        <Members schema={part} />
      ))}
    </>
  );
}

function SchemaView({ schema }: { schema: SchemaOrRef | undefined }) {
  if (!schema) return null;
  const description = descriptionOf(schema);
  return (
    <>
      <TypeLabel schema={schema} />
      {description ? (
        <>
          {" — "}
          <Prose text={description} />
        </>
      ) : null}
      <Members schema={schema} />
    </>
  );
}

function ContentView({ content }: { content: MediaTypes | undefined }) {
  return (
    <>
      {Object.entries(content ?? {}).map(([mediaType, media]) => (
        <div>
          <code>{mediaType}</code> <SchemaView schema={media.schema} />
        </div>
      ))}
    </>
  );
}

function ParametersView({ parameters }: { parameters: Operation["parameters"] }) {
  const list = (parameters ?? []).filter((parameter): parameter is Parameter => !isRef(parameter));
  if (!list.length) return null;
  return (
    <>
      <h4>Parameters</h4>
      <StackingTable>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">In</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {list.map((parameter) => {
            const schema = parameter.schema;
            const description = parameter.description ?? (schema && !isRef(schema) ? schema.description : undefined);
            return (
              <tr>
                <td>
                  <code>{parameter.name}</code>
                </td>
                <td>{parameter.in}</td>
                <td>{schema ? <TypeLabel schema={schema} /> : null}</td>
                <td>{parameter.required ? <span class="req">required</span> : "optional"}</td>
                <td>
                  <Prose text={description} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </StackingTable>
    </>
  );
}

function SecurityView({ security }: { security: Operation["security"] }) {
  if (!security) return null;
  const schemes = security.flatMap((requirement) => Object.keys(requirement));
  return (
    <p class="muted">
      Authentication:{" "}
      {schemes.length
        ? joinNodes(
            schemes.map((name) => <a href="#auth">{name}</a>),
            " or ",
          )
        : "none (public)"}
    </p>
  );
}

function OperationView(tagged: TaggedOperation) {
  const { method, path, operation } = tagged;
  const body = operation.requestBody && !isRef(operation.requestBody) ? operation.requestBody : undefined;
  return (
    <section class="op" id={operationAnchor(tagged)}>
      <h3>
        <span class={`method ${method}`}>{method}</span>
        <code>{path}</code>
      </h3>
      <p>
        <strong>
          <Prose text={operation.summary} />
        </strong>
      </p>
      {operation.description ? (
        <p>
          <Prose text={operation.description} />
        </p>
      ) : null}
      <p class="muted">
        operationId <code>{operation.operationId ?? ""}</code>
      </p>
      <SecurityView security={operation.security} />
      <ParametersView parameters={operation.parameters} />
      {body ? (
        <>
          <h4>Request body{body.required ? <span class="req"> required</span> : null}</h4>
          <ContentView content={body.content as MediaTypes} />
        </>
      ) : null}
      <h4>Responses</h4>
      <StackingTable>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Description</th>
            <th scope="col">Body</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(operation.responses ?? {}).map(([status, response]) =>
            isRef(response) ? (
              <tr>
                <td>{status}</td>
                <td>
                  <RefLink target={response.$ref} />
                </td>
                <td />
              </tr>
            ) : (
              <tr>
                <td>
                  <code>{status}</code>
                </td>
                <td>
                  <Prose text={response.description} />
                </td>
                <td>
                  <ContentView content={response.content as MediaTypes | undefined} />
                </td>
              </tr>
            ),
          )}
        </tbody>
      </StackingTable>
    </section>
  );
}

/** Operations grouped by their first tag, in document order. */
function operationsByTag(document: OpenApiDocument): Map<string, TaggedOperation[]> {
  const byTag = new Map<string, TaggedOperation[]>();
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

interface ApiReferencePageProps {
  /** The OpenAPI document as served from `origin` (`withOrigin`). */
  document: OpenApiDocument;
  origin: string;
}

/** The reference page of a document inside the layout. */
export function ApiReferencePage({ document, origin }: ApiReferencePageProps) {
  const links = buildSiteLinks(origin);
  const byTag = operationsByTag(document);
  const tagDescriptions = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
  const baseUrl = document.servers?.[0]?.url ?? "";
  const title = `${document.info.title} API ${document.info.version}`;
  const paragraphs = (document.info.description ?? "").split("\n\n").filter(Boolean);
  return (
    <Layout
      origin={origin}
      url={links.docs}
      title={title}
      description={`Every operation of the ${document.info.title} API with its parameters and answers, from its OpenAPI document.`}
      current="docs"
    >
      <h1>{title}</h1>
      {paragraphs.map((paragraph) => (
        <p>
          <Prose text={paragraph} />
        </p>
      ))}
      <p>
        Base URL: <code>{baseUrl}</code> (every path below is relative to it). Machine-readable:{" "}
        <a href={SITE_PATHS.openApiDocument}>OpenAPI 3.1 document ({SITE_PATHS.openApiDocument})</a>.
      </p>
      <nav class="toc" aria-labelledby="operations">
        <h2 id="operations">Operations</h2>
        <ul>
          {[...byTag].map(([tag, operations]) => (
            <li>
              <a href={`#tag-${tag}`}>{tag}</a>
              <ul>
                {operations.map((tagged) => (
                  <li>
                    <a href={`#${operationAnchor(tagged)}`}>
                      {tagged.method.toUpperCase()} {tagged.path}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </nav>
      {[...byTag].map(([tag, operations]) => (
        <>
          <h2 id={`tag-${tag}`}>{tag}</h2>
          {tagDescriptions.get(tag) ? (
            <p>
              <Prose text={tagDescriptions.get(tag)} />
            </p>
          ) : null}
          {operations.map((tagged) => (
            <OperationView {...tagged} />
          ))}
        </>
      ))}
      <h2 id="auth">Authentication</h2>
      <p>Operations marked public need no credentials; the others name one of these schemes.</p>
      <ul>
        {Object.entries(document.components?.securitySchemes ?? {}).map(([name, scheme]) =>
          isRef(scheme) ? null : (
            <li>
              <code>{name}</code>: {scheme.type}
              {scheme.type === "apiKey" ? (
                <>
                  {" "}
                  in {scheme.in} <code>{scheme.name}</code>
                </>
              ) : null}
              {scheme.description ? (
                <>
                  {" — "}
                  <Prose text={scheme.description} />
                </>
              ) : null}
            </li>
          ),
        )}
      </ul>
      <h2 id="schemas">Schemas</h2>
      {Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => (
        <section id={schemaAnchor(name)}>
          <h3>{name}</h3>
          <SchemaView schema={schema} />
        </section>
      ))}
      <p class="muted">
        Generated from the service's route definitions, like{" "}
        <a href={SITE_PATHS.openApiDocument}>{SITE_PATHS.openApiDocument}</a>.
      </p>
    </Layout>
  );
}

/** The reference page's HTML for a document as served from one origin. */
export function renderApiReference(document: OpenApiDocument, origin: string): Promise<string> {
  return renderPage(<ApiReferencePage document={document} origin={origin} />);
}
