/**
 * The OpenAPI signal: an OpenAPI (or Swagger 2) document describing at least one path.
 *
 * Where it looks, all at once: eleven common paths; the `service-desc` links of the RFC 9727 API
 * catalog (/.well-known/api-catalog); `Link: <…>; rel="service-desc"` headers on the home page;
 * and `api.url` of the AI plugin manifest. Documents named by those three are then fetched, their
 * relative references resolved against the document that named them. Only when none of these
 * holds a document, the site answered at least one common path and it shows an application server
 * (see showsApplicationServer), are six web frameworks' default paths tried
 * (OPENAPI_FRAMEWORK_PATHS): documents nothing links to, such as ASP.NET's
 * /swagger/v1/swagger.json, at the cost of six more requests on such sites without a document.
 *
 * Present when a document parses (JSON, or YAML with alias expansion capped) to an object with an
 * `openapi` or `swagger` string and at least one entry in `paths`. Only the document probes decide
 * blocked or error: the home page, catalog and manifest are hints, and their own failures are
 * reported by the signals and crawl status they belong to. Documents are read by the OpenAPI
 * reader (readers/openapi.ts), Link headers by the Link header reader.
 */

export type { OpenApiSummary } from "../readers/openapi.ts";
export { readOpenApiDocument } from "../readers/openapi.ts";

import { readLinkHeader } from "../readers/link-header.ts";
import { type OpenApiSummary, readOpenApiDocument } from "../readers/openapi.ts";
import {
  classifyResponse,
  combineStatus,
  displayUrl,
  isHtmlAnswer,
  judgeProbe,
  type ProbeVerdict,
  resolveHttpUrl,
  siteUrl,
  toSentence,
} from "./blocking.ts";
import { type AiCatalogFinding, controlsOf, crawlStateOf, ruleOutCatchAll } from "./crawl-state.ts";
import { AI_PLUGIN_PATH, readAiPluginManifest } from "./detect-ai-plugin.ts";
import { LLMS_TXT_PATHS } from "./detect-llms-txt.ts";
import { API_CATALOG_PATH, JSON_API_PATHS, readApiCatalog } from "./detect-structured-api.ts";
import { fetchRecord, type ProbeAnswer, type ProbeContext, type ProbeResponse, type SignalFinding } from "./types.ts";

export const OPENAPI_COMMON_PATHS = [
  "/openapi.json",
  "/openapi.yaml",
  "/openapi.yml",
  "/swagger.json",
  "/swagger.yaml",
  "/.well-known/openapi.json",
  "/.well-known/openapi.yaml",
  "/v3/api-docs",
  "/api/openapi.json",
  "/api-docs",
  "/docs/openapi.json",
] as const;

/**
 * Where web frameworks serve their generated document by default, tried only after everything
 * above found none, and only on a site that answered at least one common path (a site that refuses
 * or ignores the crawler would refuse these too). Ordered by how widely the framework is used.
 */
export const OPENAPI_FRAMEWORK_PATHS = [
  // ASP.NET Core with Swashbuckle (and NSwag): the route swagger/{documentName}/swagger.json, document "v1".
  "/swagger/v1/swagger.json",
  // Spring Boot with Springfox (Swagger 2).
  "/v2/api-docs",
  // NestJS: SwaggerModule.setup("api", …) serves the JSON at <path>-json.
  "/api-json",
  // ASP.NET Core 9+ with Microsoft.AspNetCore.OpenApi: MapOpenApi() at /openapi/{documentName}.json.
  "/openapi/v1.json",
  // Go with swaggo (gin-swagger, echo-swagger).
  "/swagger/doc.json",
  // Quarkus with SmallRye OpenAPI (YAML).
  "/q/openapi",
] as const;

export type OpenApiSource =
  | "common path"
  | "ai-catalog"
  | "api-catalog"
  | "link header"
  | "ai-plugin"
  | "framework default";

/** At most this many documents named by the catalog, Link headers and manifest are fetched. */
const MAX_DISCOVERED = 8;

/** The targets of `rel="service-desc"` links in a Link header, made absolute against `base`. */
export function readServiceDescLinks(header: string | null, base: string): string[] {
  return readLinkHeader(header, base, resolveHttpUrl)
    .filter((link) => link.rels.includes("service-desc"))
    .map((link) => link.href);
}

interface DocumentVerdict extends ProbeVerdict {
  summary?: OpenApiSummary;
  /** The verdict came from reading a body, so it explains an absence better than a 404. */
  specific?: boolean;
}

function judgeDocumentAnswer(answer: ProbeAnswer, where: string): DocumentVerdict {
  if (answer.status !== 200) return { status: "absent", reason: `${where} answered ${answer.status}, not 200` };
  if (isHtmlAnswer(answer)) return { status: "absent", reason: `${where} answered 200 with an HTML page` };
  const read = readOpenApiDocument(answer.body);
  if ("problem" in read) return { status: "absent", reason: `${where} ${read.problem}`, specific: true };
  return { status: "present", reason: `OpenAPI ${read.version} document found at ${where}`, summary: read };
}

function answerOf(response: ProbeResponse): ProbeAnswer | null {
  return response.ok && response.status >= 200 && response.status < 300 ? response : null;
}

/** Documents named by the AI Catalog, the API catalog, the home page's Link headers and the plugin manifest. */
function discoverDocuments(
  aiCatalogs: AiCatalogFinding[],
  catalog: ProbeResponse,
  home: ProbeResponse,
  manifest: ProbeResponse,
): [string, OpenApiSource][] {
  const found: [string, OpenApiSource][] = [];
  for (const entry of aiCatalogs.flatMap((each) => each.catalog?.reachable ?? [])) {
    if (entry.kind === "openapi" && entry.url) found.push([entry.url, "ai-catalog"]);
  }
  const catalogAnswer = answerOf(catalog);
  const read = catalogAnswer ? readApiCatalog(catalogAnswer) : null;
  for (const entry of read?.entries ?? []) {
    for (const href of entry.serviceDesc) found.push([href, "api-catalog"]);
  }
  const homeAnswer = answerOf(home);
  if (homeAnswer) {
    for (const href of readServiceDescLinks(homeAnswer.headers.get("link"), homeAnswer.finalUrl || homeAnswer.url)) {
      found.push([href, "link header"]);
    }
  }
  const manifestAnswer = answerOf(manifest);
  const apiUrl = manifestAnswer
    ? readAiPluginManifest(manifestAnswer.body, manifestAnswer.finalUrl || manifestAnswer.url)?.apiUrl
    : null;
  if (apiUrl) found.push([apiUrl, "ai-plugin"]);
  return found;
}

/** An answer to a document probe, with what led to it. */
type SourcedResponse = [ProbeResponse, OpenApiSource];

/** The first wave of requests, made all at once: the common paths and the three hints. */
interface FirstWave {
  commonUrls: string[];
  commonResponses: ProbeResponse[];
  catalog: ProbeResponse;
  home: ProbeResponse;
  manifest: ProbeResponse;
  /** A catalog the home page links to first (AI Catalog "Link Relation Discovery"), then the well-known one. */
  aiCatalogs: AiCatalogFinding[];
}

/** Every document probed, in order (common, named, framework), with its verdict at the same index. */
interface Judged {
  documents: SourcedResponse[];
  verdicts: DocumentVerdict[];
  /** The catch-all control requests made while judging. */
  controls: ProbeResponse[];
  frameworkTried: boolean;
  frameworkResponses: ProbeResponse[];
}

/** Detects an OpenAPI document (see the module comment). */
export async function detectOpenApi(context: ProbeContext): Promise<SignalFinding> {
  const first = await fetchFirstWave(context);
  const seen = new Set<string>(first.commonUrls);
  const discovered = pickDiscovered(first, seen);
  const discoveredResponses = await Promise.all(discovered.map(([url]) => context.fetch(url)));
  const documents: SourcedResponse[] = [
    ...first.commonResponses.map((response): SourcedResponse => [response, "common path"]),
    ...discoveredResponses.map((response, i): SourcedResponse => [response, discovered[i]![1]]),
  ];
  const judged = await judgeWithFrameworkFallback(context, first.home, first.commonResponses, documents, seen);
  const fetched = [
    ...first.commonResponses,
    first.catalog,
    first.home,
    first.manifest,
    ...first.aiCatalogs.flatMap((each) => [
      each.response,
      ...each.nested.flatMap((nested) => (nested.response ? [nested.response] : [])),
    ]),
    ...discoveredResponses,
    ...judged.frameworkResponses,
    ...controlsOf(judged.controls.map((control) => ({ control }))),
  ].map(fetchRecord);
  const foundAt = judged.verdicts.findIndex((verdict) => verdict.status === "present");
  if (foundAt >= 0) return describeFound(context.origin, first, discovered, judged, foundAt, fetched);
  return { ...explainAbsence(context.origin, discovered, judged), fetched };
}

/** Fetches the common paths, the API catalog, the home page and the plugin manifest, and reads the AI Catalogs. */
async function fetchFirstWave(context: ProbeContext): Promise<FirstWave> {
  const { origin } = context;
  const commonUrls = OPENAPI_COMMON_PATHS.map((path) => siteUrl(origin, path));
  const [commonResponses, catalog, home, manifest, wellKnownCatalog, linkedCatalog] = await Promise.all([
    Promise.all(commonUrls.map((url) => context.fetch(url))),
    context.fetch(siteUrl(origin, API_CATALOG_PATH)),
    context.fetch(`${origin}/`),
    context.fetch(siteUrl(origin, AI_PLUGIN_PATH)),
    crawlStateOf(context).aiCatalog(),
    crawlStateOf(context).linkedAiCatalog(),
  ]);
  const aiCatalogs = linkedCatalog ? [linkedCatalog, wellKnownCatalog] : [wellKnownCatalog];
  return { commonUrls, commonResponses, catalog, home, manifest, aiCatalogs };
}

/** The named documents not already fetched, at most MAX_DISCOVERED; each one taken is added to `seen`. */
function pickDiscovered(first: FirstWave, seen: Set<string>): [string, OpenApiSource][] {
  const discovered: [string, OpenApiSource][] = [];
  for (const [url, source] of discoverDocuments(first.aiCatalogs, first.catalog, first.home, first.manifest)) {
    if (seen.has(url) || discovered.length >= MAX_DISCOVERED) continue;
    seen.add(url);
    discovered.push([url, source]);
  }
  return discovered;
}

/**
 * Judges the documents; when none is present and the site answered a common path, fetches and
 * judges the framework default paths nothing else fetched.
 */
async function judgeWithFrameworkFallback(
  context: ProbeContext,
  home: ProbeResponse,
  commonResponses: ProbeResponse[],
  documents: SourcedResponse[],
  seen: Set<string>,
): Promise<Judged> {
  const controls: ProbeResponse[] = [];
  let verdicts = await judgeDocuments(context, documents, controls);
  const siteAnswers = commonResponses.some(
    (response) => classifyResponse(response) !== "error" && classifyResponse(response) !== "blocked",
  );
  const frameworkTried =
    !verdicts.some((verdict) => verdict.status === "present") &&
    siteAnswers &&
    (await showsApplicationServer(context, home, commonResponses));
  if (!frameworkTried) return { documents, verdicts, controls, frameworkTried, frameworkResponses: [] };
  // A default path a document already named was fetched as that document.
  const frameworkUrls = OPENAPI_FRAMEWORK_PATHS.map((path) => siteUrl(context.origin, path)).filter(
    (url) => !seen.has(url),
  );
  const frameworkResponses = await Promise.all(frameworkUrls.map((url) => context.fetch(url)));
  const frameworkDocuments = frameworkResponses.map((response): SourcedResponse => [response, "framework default"]);
  verdicts = [...verdicts, ...(await judgeDocuments(context, frameworkDocuments, controls))];
  return { documents: [...documents, ...frameworkDocuments], verdicts, controls, frameworkTried, frameworkResponses };
}

/** A 2xx or 4xx answer whose body is JSON: the site's router speaks JSON (a framework's JSON 404 included). */
function answersJson(response: ProbeResponse): boolean {
  if (!response.ok || response.status >= 500 || isHtmlAnswer(response)) return false;
  const type = response.contentType ?? "";
  return /^application\/(?:[\w.+-]*\+)?json$/.test(type);
}

/**
 * Whether the site shows an application server, the only kind that serves a framework's generated
 * document at its default path (docs/crawling.md, "The crawl plan"): its home page is not an HTML
 * page answering 2xx (an API host's root answers 404, JSON or text); or a common path or a JSON API
 * root answered in JSON (Spring Boot's, NestJS's and FastAPI's 404s are JSON); or the site's
 * llms.txt names one of the default paths. Every answer read here is one the crawl asks anyway
 * (the home page, the common paths, the structured API's roots, llms.txt), so the question costs
 * no request; a static or content site that shows none of this is spared the six guesses.
 */
async function showsApplicationServer(
  context: ProbeContext,
  home: ProbeResponse,
  commonResponses: ProbeResponse[],
): Promise<boolean> {
  const htmlHome = home.ok && home.status >= 200 && home.status < 300 && isHtmlAnswer(home);
  if (!htmlHome) return true;
  if (commonResponses.some(answersJson)) return true;
  const [apiRoots, llms] = await Promise.all([
    Promise.all(JSON_API_PATHS.map((path) => context.fetch(siteUrl(context.origin, path)))),
    Promise.all(LLMS_TXT_PATHS.map((path) => context.fetch(siteUrl(context.origin, path)))),
  ]);
  if (apiRoots.some(answersJson)) return true;
  return llms.some(
    (response) =>
      response.ok &&
      response.status === 200 &&
      !isHtmlAnswer(response) &&
      OPENAPI_FRAMEWORK_PATHS.some(
        (path) => response.body.includes(`(${path})`) || response.body.includes(siteUrl(context.origin, path)),
      ),
  );
}

/** Each document's verdict, at once; a control request made to rule out the catch-all is added to `controls`. */
function judgeDocuments(
  context: ProbeContext,
  batch: SourcedResponse[],
  controls: ProbeResponse[],
): Promise<DocumentVerdict[]> {
  // Only a document that looks like one is compared with the site's catch-all answer.
  return Promise.all(
    batch.map(async ([response]) => {
      const verdict = judgeProbe(response, context.origin, judgeDocumentAnswer) as DocumentVerdict;
      const checked = await ruleOutCatchAll(context, response, verdict);
      if (checked.control) controls.push(checked.control);
      // A document ruled out as the catch-all explains the absence better than a 404 would.
      return checked.verdict === verdict ? verdict : { ...checked.verdict, specific: true };
    }),
  );
}

/** The present finding for the document at `foundAt`, saying what named it when not a common path. */
function describeFound(
  origin: string,
  first: FirstWave,
  discovered: [string, OpenApiSource][],
  { documents, verdicts }: Judged,
  foundAt: number,
  fetched: SignalFinding["fetched"],
): SignalFinding {
  const [response, source] = documents[foundAt]!;
  const { summary, reason } = verdicts[foundAt]!;
  const via =
    source === "common path"
      ? ""
      : source === "framework default"
        ? " (a web framework's default path)"
        : ` (named by the ${describeSource(source)}${nestedChain(first.aiCatalogs, discovered, foundAt - first.commonResponses.length, origin)})`;
  return {
    status: "present",
    reason: toSentence(`${reason}${via}`),
    fetched,
    details: {
      url: response.finalUrl || response.url,
      version: summary!.version,
      title: summary!.title,
      path_count: summary!.pathCount,
      // What its operations are called (site-capabilities.ts keeps what the site says it does).
      operations: summary!.operations,
      tags: summary!.tags,
      found_via: source,
    },
  };
}

/**
 * The status and reason when no document is present: a refusal or failure first, then a body
 * that was read and found wanting, else where the crawler looked.
 */
function explainAbsence(
  origin: string,
  discovered: [string, OpenApiSource][],
  { verdicts, frameworkTried }: Judged,
): Pick<SignalFinding, "status" | "reason"> {
  const status = combineStatus(verdicts.map((verdict) => verdict.status));
  if (status !== "absent") {
    return { status, reason: toSentence(verdicts.find((verdict) => verdict.status === status)!.reason) };
  }
  const specific = verdicts.find((verdict) => verdict.specific);
  if (specific) return { status, reason: toSentence(specific.reason) };
  const namedElsewhere =
    discovered.length > 0
      ? `and the ${discovered.length === 1 ? "document" : "documents"} named at ${discovered
          .map(([url]) => displayUrl(url, origin))
          .join(", ")} did not hold one`
      : "and no AI Catalog, API catalog, Link header or plugin manifest named one";
  const frameworks = frameworkTried ? `, nor at ${OPENAPI_FRAMEWORK_PATHS.length} web frameworks' default paths` : "";
  return {
    status,
    reason: toSentence(
      `no OpenAPI document at ${OPENAPI_COMMON_PATHS.length} common paths, ${namedElsewhere}${frameworks}`,
    ),
  };
}

/**
 * " /.well-known/ai-catalog.json, through the nested catalog /b.json": which AI Catalog named a
 * document, and through which nested catalogs.
 */
function nestedChain(
  aiCatalogs: AiCatalogFinding[],
  discovered: [string, OpenApiSource][],
  index: number,
  origin: string,
): string {
  const named = discovered[index];
  if (named?.[1] !== "ai-catalog") return "";
  const holder = aiCatalogs.find((each) =>
    each.catalog?.reachable.some((entry) => entry.kind === "openapi" && entry.url === named[0]),
  );
  const entry = holder?.catalog?.reachable.find((each) => each.kind === "openapi" && each.url === named[0]);
  if (!holder || !entry) return "";
  const linked =
    holder.source === "well-known"
      ? ` ${displayUrl(holder.url, origin)}`
      : ` ${displayUrl(holder.url, origin)}, which the home page's ${holder.source} names`;
  if (entry.via.length === 0) return linked;
  const hops = entry.via.map((url) =>
    url ? `the nested catalog ${displayUrl(url, origin)}` : "a nested catalog inline",
  );
  return `${linked}, through ${hops.join(", then ")}`;
}

function describeSource(source: Exclude<OpenApiSource, "common path" | "framework default">): string {
  if (source === "ai-catalog") return "AI Catalog";
  if (source === "api-catalog") return "API catalog /.well-known/api-catalog";
  if (source === "link header") return "home page's Link header";
  return "AI plugin manifest";
}
