/**
 * The structured API signal: a callable machine API, other than the OpenAPI file itself. Present
 * when any of these holds (all probed at once):
 *
 * - API catalog: /.well-known/api-catalog (RFC 9727; a JSON linkset, served as
 *   application/linkset+json or plain JSON) declares an API: an entry whose `anchor` carries a
 *   `service-desc`, `service-doc` or `service-meta` link, or an `item` link, where that anchor or
 *   item is neither the catalog itself nor one of the catalog's own `service-desc` documents. A
 *   catalog that only points at description files describes an API without naming its endpoint.
 * - GraphQL: POST /graphql with `{"query":"{__typename}"}` (application/json) answers 200 with a
 *   JSON body whose `data.__typename` is a string.
 * - JSON API root: GET /api or /api/v1 answers 200 with a JSON media type (not
 *   application/problem+json) and a non-empty JSON object or array that is not an error object
 *   (one whose keys are all error-ish, such as `error`, `message`, `status`).
 *
 * An AI plugin manifest or an OpenAPI document alone is not enough: each is its own signal. A
 * catalog or JSON root that is the site's catch-all answer (see catch-all.ts) is none.
 */
import {
  decideVerdict,
  isHtmlAnswer,
  isJsonContentType,
  isRecord,
  judgeProbe,
  type ProbeVerdict,
  parseJson,
  resolveHttpUrl,
  siteUrl,
} from "./blocking.ts";
import { controlsOf, ruleOutCatchAll } from "./crawl-state.ts";
import { fetchRecord, type ProbeAnswer, type ProbeContext, type SignalFinding } from "./types.ts";

export const API_CATALOG_PATH = "/.well-known/api-catalog";
export const GRAPHQL_PATH = "/graphql";
export const JSON_API_PATHS = ["/api", "/api/v1"] as const;

/** The GraphQL probe, spelt once so every caller shares the memoised answer. */
export const GRAPHQL_PROBE = {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json" },
  body: JSON.stringify({ query: "{__typename}" }),
} as const;

/** One context object of an API catalog's linkset, its references made absolute. */
export interface ApiCatalogEntry {
  /** What the entry describes, or null when it names no anchor. */
  anchor: string | null;
  serviceDesc: string[];
  serviceDoc: string[];
  serviceMeta: string[];
  items: string[];
}

/** An API catalog as read from its answer. */
export interface ApiCatalog {
  /** The catalog's own URL (after redirects): the base of its relative references. */
  url: string;
  entries: ApiCatalogEntry[];
}

function readTargets(value: unknown, base: string): string[] {
  if (!Array.isArray(value)) return [];
  const hrefs: string[] = [];
  for (const target of value) {
    if (!isRecord(target) || typeof target.href !== "string") continue;
    const href = resolveHttpUrl(target.href, base);
    if (href) hrefs.push(href);
  }
  return hrefs;
}

/** Reads an RFC 9727 API catalog (a JSON linkset); null when the answer is not one. */
export function readApiCatalog(answer: ProbeAnswer): ApiCatalog | null {
  if (answer.status !== 200 || isHtmlAnswer(answer)) return null;
  const document = parseJson(answer.body);
  if (!isRecord(document) || !Array.isArray(document.linkset)) return null;
  const url = answer.finalUrl || answer.url;
  const entries: ApiCatalogEntry[] = [];
  for (const context of document.linkset) {
    if (!isRecord(context)) continue;
    entries.push({
      anchor: typeof context.anchor === "string" ? resolveHttpUrl(context.anchor, url) : null,
      serviceDesc: readTargets(context["service-desc"], url),
      serviceDoc: readTargets(context["service-doc"], url),
      serviceMeta: readTargets(context["service-meta"], url),
      items: readTargets(context.item, url),
    });
  }
  return { url, entries };
}

/** The APIs a catalog declares (see the module comment), without duplicates. */
export function listDeclaredApis(catalog: ApiCatalog): string[] {
  const descriptions = new Set(catalog.entries.flatMap((entry) => entry.serviceDesc));
  const isApi = (url: string) => url !== catalog.url && !descriptions.has(url);
  const apis = new Set<string>();
  for (const entry of catalog.entries) {
    const described = entry.serviceDesc.length + entry.serviceDoc.length + entry.serviceMeta.length > 0;
    if (entry.anchor && described && isApi(entry.anchor)) apis.add(entry.anchor);
    for (const item of entry.items) if (isApi(item)) apis.add(item);
  }
  return [...apis];
}

const ERROR_KEYS = new Set([
  "error",
  "errors",
  "message",
  "msg",
  "status",
  "statuscode",
  "status_code",
  "code",
  "detail",
  "details",
  "title",
  "type",
  "path",
  "timestamp",
  "request_id",
  "requestid",
  "success",
]);

/** True for a body that only reports an error, such as `{"error":"not found"}`. */
function isErrorObject(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value).map((key) => key.toLowerCase());
  return keys.some((key) => key === "error" || key === "errors") && keys.every((key) => ERROR_KEYS.has(key));
}

interface ApiVerdict extends ProbeVerdict {
  kind?: "api-catalog" | "graphql" | "json-api";
  url?: string;
  apis?: string[];
}

function judgeCatalogAnswer(answer: ProbeAnswer, where: string): ApiVerdict {
  if (answer.status !== 200) return { status: "absent", reason: `${where} answered ${answer.status}, not 200` };
  if (isHtmlAnswer(answer)) return { status: "absent", reason: `${where} answered 200 with an HTML page (a soft 404)` };
  const catalog = readApiCatalog(answer);
  if (!catalog) return { status: "absent", reason: `${where} is not an API catalog (a JSON linkset)` };
  const apis = listDeclaredApis(catalog);
  if (apis.length === 0) return { status: "absent", reason: `the API catalog at ${where} declares no API endpoint` };
  const count = apis.length === 1 ? "an API" : `${apis.length} APIs`;
  return {
    status: "present",
    reason: `the API catalog at ${where} declares ${count}`,
    kind: "api-catalog",
    url: catalog.url,
    apis,
  };
}

function judgeGraphqlAnswer(answer: ProbeAnswer, where: string): ApiVerdict {
  if (answer.status !== 200)
    return { status: "absent", reason: `${where} answered ${answer.status} to a GraphQL query` };
  const result = isHtmlAnswer(answer) ? undefined : parseJson(answer.body);
  const data = isRecord(result) ? result.data : undefined;
  if (!isRecord(data) || typeof data.__typename !== "string") {
    return { status: "absent", reason: `${where} did not answer a GraphQL {__typename} query` };
  }
  return {
    status: "present",
    reason: `a GraphQL endpoint at ${where} answered {__typename}`,
    kind: "graphql",
    url: answer.finalUrl || answer.url,
  };
}

function judgeJsonRootAnswer(answer: ProbeAnswer, where: string): ApiVerdict {
  if (answer.status !== 200) return { status: "absent", reason: `${where} answered ${answer.status}, not 200` };
  if (isHtmlAnswer(answer)) return { status: "absent", reason: `${where} answered 200 with an HTML page` };
  if (!isJsonContentType(answer.contentType) || answer.contentType === "application/problem+json") {
    return { status: "absent", reason: `${where} answered ${answer.contentType ?? "no content type"}, not JSON` };
  }
  const body = parseJson(answer.body);
  const usable = Array.isArray(body)
    ? body.length > 0
    : isRecord(body) && Object.keys(body).length > 0 && !isErrorObject(body);
  if (!usable) return { status: "absent", reason: `${where} answered JSON that is empty, invalid or only an error` };
  return {
    status: "present",
    reason: `a JSON API answers at ${where}`,
    kind: "json-api",
    url: answer.finalUrl || answer.url,
  };
}

/** Detects a structured API (see the module comment). */
export async function detectStructuredApi(context: ProbeContext): Promise<SignalFinding> {
  const { origin } = context;
  const [catalog, graphql, ...roots] = await Promise.all([
    context.fetch(siteUrl(origin, API_CATALOG_PATH)),
    context.fetch(siteUrl(origin, GRAPHQL_PATH), {
      method: GRAPHQL_PROBE.method,
      headers: { ...GRAPHQL_PROBE.headers },
      body: GRAPHQL_PROBE.body,
    }),
    ...JSON_API_PATHS.map((path) => context.fetch(siteUrl(origin, path))),
  ]);
  // The catalog and the JSON roots are GETs a catch-all answers too; a GraphQL answer is proof itself.
  const judged = await Promise.all([
    ruleOutCatchAll(context, catalog, judgeProbe(catalog, origin, judgeCatalogAnswer) as ApiVerdict),
    { verdict: judgeProbe(graphql, origin, judgeGraphqlAnswer) as ApiVerdict, control: null },
    ...roots.map((root) => ruleOutCatchAll(context, root, judgeProbe(root, origin, judgeJsonRootAnswer) as ApiVerdict)),
  ]);
  const verdicts: ApiVerdict[] = judged.map((one) => one.verdict);
  const finding: SignalFinding = {
    ...decideVerdict(verdicts),
    fetched: [catalog, graphql, ...roots, ...controlsOf(judged)].map(fetchRecord),
  };
  const found = verdicts.filter((verdict) => verdict.status === "present");
  if (found.length > 0) {
    const apis = found.flatMap((verdict) => verdict.apis ?? []);
    finding.details = {
      kind: found[0]!.kind,
      url: found[0]!.url,
      kinds: [...new Set(found.map((verdict) => verdict.kind))],
      ...(apis.length > 0 ? { catalog_apis: apis } : {}),
    };
  }
  return finding;
}
