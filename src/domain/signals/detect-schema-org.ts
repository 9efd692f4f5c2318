/**
 * The schema.org signal, read from the home page (a 200 HTML answer). Present when the page holds
 * any of:
 *
 * - JSON-LD: a `<script type="application/ld+json">` block that parses, as an object, an array or
 *   an `@graph`, to a node with an `@type` under an `@context` naming schema.org (http or https;
 *   a string, or an array or object holding it, such as `{"@vocab": "https://schema.org/"}`).
 *   A node inherits the context of the object that holds it.
 * - Microdata: an element with `itemscope` and an `itemtype` of `http(s)://schema.org/…`.
 * - RDFa: an element with `typeof`, on a page declaring `vocab="http(s)://schema.org/"` (or a
 *   prefix bound to schema.org, used as `typeof="schema:Thing"`).
 */

import { walkHtml } from "../classification/site-metadata.ts";
import { decideVerdict, isHtmlAnswer, isRecord, judgeProbe, type ProbeVerdict, parseJson } from "./blocking.ts";
import { fetchRecord, type ProbeAnswer, type ProbeContext, type SignalFinding } from "./types.ts";

export type SchemaOrgFormat = "json-ld" | "microdata" | "rdfa";

/** What schema.org markup a page holds: its formats and its types, in page order, without duplicates. */
export interface SchemaOrgMarkup {
  formats: SchemaOrgFormat[];
  types: string[];
}

const SCHEMA_ORG_URL = /^https?:\/\/schema\.org\/?$/i;
const SCHEMA_ORG_TYPE_URL = /^https?:\/\/schema\.org\/([A-Za-z][A-Za-z0-9_]*)/i;
const MAX_TYPES = 10;
/** JSON-LD deeper than this is not walked: real markup is shallow, and recursion must stay bounded. */
const MAX_DEPTH = 12;

function namesSchemaOrg(context: unknown): boolean {
  if (typeof context === "string") return SCHEMA_ORG_URL.test(context.trim());
  if (Array.isArray(context)) return context.some(namesSchemaOrg);
  if (isRecord(context))
    return Object.values(context).some((value) => typeof value === "string" && namesSchemaOrg(value));
  return false;
}

/** A schema.org type name from an @type value: `Organization`, `schema:Organization` or a full URL. */
function typeName(value: string): string | null {
  const trimmed = value.trim();
  const fromUrl = SCHEMA_ORG_TYPE_URL.exec(trimmed);
  if (fromUrl) return fromUrl[1]!;
  const local = trimmed.replace(/^schema:/i, "");
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(local) ? local : null;
}

function collectJsonLdTypes(node: unknown, inSchemaContext: boolean, depth: number, types: string[]): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(node)) {
    for (const item of node) collectJsonLdTypes(item, inSchemaContext, depth + 1, types);
    return;
  }
  if (!isRecord(node)) return;
  const schemaContext = "@context" in node ? namesSchemaOrg(node["@context"]) : inSchemaContext;
  if (schemaContext) {
    const declared = node["@type"];
    const values = typeof declared === "string" ? [declared] : Array.isArray(declared) ? declared : [];
    for (const value of values) {
      const name = typeof value === "string" ? typeName(value) : null;
      if (name && !types.includes(name)) types.push(name);
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== "@context" && typeof value === "object" && value !== null) {
      collectJsonLdTypes(value, schemaContext, depth + 1, types);
    }
  }
}

/** The schema.org JSON-LD, microdata and RDFa in an HTML page (see the module comment). */
export function findSchemaOrgMarkup(html: string): SchemaOrgMarkup {
  const jsonLdTypes: string[] = [];
  const microdataTypes: string[] = [];
  const rdfaTypes: string[] = [];
  const rdfaPrefixes = new Set<string>();
  let rdfaVocab = false;
  walkHtml(html, (tag) => {
    const { attributes } = tag;
    if (tag.name === "script") {
      const type = (attributes.type ?? "").split(";")[0]!.trim().toLowerCase();
      if (type === "application/ld+json" && tag.content) {
        const text = tag.content.trim().replace(/^<!--/, "").replace(/-->$/, "");
        collectJsonLdTypes(parseJson(text), false, 0, jsonLdTypes);
      }
      return;
    }
    if ("itemscope" in attributes && attributes.itemtype) {
      for (const itemType of attributes.itemtype.split(/\s+/)) {
        const name = SCHEMA_ORG_TYPE_URL.exec(itemType)?.[1];
        if (name && !microdataTypes.includes(name)) microdataTypes.push(name);
      }
    }
    if (attributes.vocab && SCHEMA_ORG_URL.test(attributes.vocab.trim())) rdfaVocab = true;
    if (attributes.prefix) {
      for (const [, prefix, iri] of attributes.prefix.matchAll(/([A-Za-z][\w-]*):\s+(\S+)/g)) {
        if (SCHEMA_ORG_URL.test(iri!)) rdfaPrefixes.add(prefix!.toLowerCase());
      }
    }
    if (attributes.typeof) {
      for (const token of attributes.typeof.split(/\s+/)) {
        if (token && !rdfaTypes.includes(token)) rdfaTypes.push(token);
      }
    }
  });
  const rdfaSchemaTypes = rdfaTypes.flatMap((token) => {
    const colon = token.indexOf(":");
    if (colon < 0) return rdfaVocab ? [token] : [];
    const fromUrl = SCHEMA_ORG_TYPE_URL.exec(token);
    if (fromUrl) return [fromUrl[1]!];
    return rdfaPrefixes.has(token.slice(0, colon).toLowerCase()) ? [token.slice(colon + 1)] : [];
  });
  const formats: SchemaOrgFormat[] = [];
  if (jsonLdTypes.length > 0) formats.push("json-ld");
  if (microdataTypes.length > 0) formats.push("microdata");
  if (rdfaSchemaTypes.length > 0) formats.push("rdfa");
  const types = [...new Set([...jsonLdTypes, ...microdataTypes, ...rdfaSchemaTypes])];
  return { formats, types };
}

const FORMAT_NAMES: Record<SchemaOrgFormat, string> = { "json-ld": "JSON-LD", microdata: "microdata", rdfa: "RDFa" };

interface SchemaVerdict extends ProbeVerdict {
  markup?: SchemaOrgMarkup;
}

function judgeHomeAnswer(answer: ProbeAnswer): SchemaVerdict {
  if (answer.status !== 200) return { status: "absent", reason: `the home page answered ${answer.status}, not 200` };
  if (!isHtmlAnswer(answer)) {
    return { status: "absent", reason: `the home page is not HTML (${answer.contentType ?? "no content type"})` };
  }
  const markup = findSchemaOrgMarkup(answer.body);
  if (markup.formats.length === 0) {
    return { status: "absent", reason: "the home page has no schema.org JSON-LD, microdata or RDFa" };
  }
  const formats = markup.formats.map((format) => FORMAT_NAMES[format]).join(" and ");
  const shown = markup.types.slice(0, 3).join(", ");
  return { status: "present", reason: `schema.org ${formats} on the home page (${shown})`, markup };
}

/** Detects schema.org markup on the home page (see the module comment). */
export async function detectSchemaOrg(context: ProbeContext): Promise<SignalFinding> {
  const home = await context.fetch(`${context.origin}/`);
  const verdict: SchemaVerdict = judgeProbe(home, context.origin, judgeHomeAnswer);
  const finding: SignalFinding = { ...decideVerdict([verdict]), fetched: [fetchRecord(home)] };
  if (verdict.markup) {
    finding.details = { types: verdict.markup.types.slice(0, MAX_TYPES), formats: verdict.markup.formats };
  }
  return finding;
}
