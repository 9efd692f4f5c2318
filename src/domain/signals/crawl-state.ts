/**
 * What the detectors of one crawl share besides the memoised fetcher: the control requests (one
 * per shape, see catch-all.ts), the AI Catalog as read once, and the MCP server cards found on
 * the way to an endpoint. The crawl hands all three on in its result, so later readers (the
 * checklist) need not fetch them again.
 *
 * The state belongs to the crawl's fetcher: every detector of a crawl is given the same one, so a
 * detector run alone (tests, /verify-mcp) gets a state of its own without any setup.
 */

import { parseRobotsTxt } from "../readers/robots-txt.ts";
import {
  AI_CATALOG_PATH,
  type AiCatalog,
  ARD_PATH,
  agentmapOf,
  type LinkedCatalog,
  linkedCatalogOf,
  MAX_NESTED_FETCHES,
  MAX_NESTING_DEPTH,
  readAiCatalog,
  readAiCatalogDocument,
} from "./ai-catalog.ts";
import {
  describeUnusable,
  displayUrl,
  isHtmlAnswer,
  type ProbeVerdict,
  type SignalStatus,
  siteUrl,
} from "./blocking.ts";
import {
  type CatchAllCheck,
  type ControlAnswer,
  type ControlRequests,
  checkCatchAll,
  createControlRequests,
} from "./catch-all.ts";
import type { ProbeContext, ProbeResponse, SiteFetcher } from "./types.ts";

/** How an MCP server card was found. */
export type ServerCardRoute =
  /** Named by `url` in an AI Catalog entry. */
  | "ai-catalog"
  /** Carried inline in an AI Catalog entry's `data`. */
  | "ai-catalog-inline"
  /** At one of the well-known paths scanners probe. */
  | "well-known"
  /** At `<endpoint>/server-card` of an endpoint that answered the handshake (SEP-2127). */
  | "endpoint";

/** A server card (or other MCP discovery document) found during a crawl. */
export interface ServerCardFinding {
  route: ServerCardRoute;
  /** Where the card was fetched; null for a card carried inline. */
  url: string | null;
  /** The catalog that named it, for the catalog routes. */
  catalogUrl: string | null;
  /** The card's `$schema`, when it has one. */
  schema: string | null;
  /** The card as parsed. */
  card: Record<string, unknown>;
  /** The endpoint it names (the Streamable HTTP one when it names several), or null. */
  endpoint: string | null;
}

/** A nested catalog an AI Catalog entry named, and what became of it. */
export interface NestedCatalogFinding {
  /** Where it was fetched; null for one carried inline in `data`. */
  url: string | null;
  /** The catalog whose entry named it. */
  parentUrl: string;
  /** 1 for a catalog the site's catalog names, 2 for one that one names, … */
  depth: number;
  /** present: read; absent: not a catalog there; blocked or error: could not tell; skipped: not fetched. */
  status: SignalStatus | "skipped";
  /** A clause saying what was seen, or why it was not followed. */
  reason: string;
  /** The answer, when it was fetched. */
  response: ProbeResponse | null;
}

/** The AI Catalog as the crawl read it. */
export interface AiCatalogFinding {
  url: string;
  /** How the site names it: the well-known path, or the home page's `ai-catalog` link relation. */
  source: "well-known" | LinkedCatalog["via"];
  /** present: a catalog; absent: none there (or a catch-all page); blocked or error: could not tell. */
  status: SignalStatus;
  /** A clause saying what was seen. */
  reason: string;
  catalog: AiCatalog | null;
  response: ProbeResponse;
  /** What the control request said of it, when one was asked. */
  control: CatchAllCheck | null;
  /** The nested catalogs its entries named, in the order they were read. */
  nested: NestedCatalogFinding[];
}

/**
 * The crawl's intermediate findings, kept so that later readers (the checklist) reuse them rather
 * than fetch again: the AI Catalog as read, every MCP server card found with its route, and the
 * control requests' answers (see catch-all.ts).
 */
export interface CrawlDiscovery {
  /** Null when the signals were not probed (see signalsOnlyOnSuccess). */
  aiCatalog: AiCatalogFinding | null;
  serverCards: ServerCardFinding[];
  controls: ControlAnswer[];
}

export interface CrawlState {
  controls: ControlRequests;
  /** The AI Catalog at the well-known path, fetched and read once per crawl. */
  aiCatalog(): Promise<AiCatalogFinding>;
  /**
   * The AI Catalog the home page names with the `ai-catalog` link relation, when it names one
   * other than the well-known path's (and not one of its nested catalogs): read once per crawl.
   */
  linkedAiCatalog(): Promise<AiCatalogFinding | null>;
  /** Server cards found, in the order they were read. */
  serverCards: ServerCardFinding[];
}

const states = new WeakMap<SiteFetcher, CrawlState>();

/** The state of the crawl a detector's context belongs to (created on first use). */
export function crawlStateOf(context: ProbeContext): CrawlState {
  let state = states.get(context.fetch);
  if (!state) {
    const controls = createControlRequests(context);
    let catalog: Promise<AiCatalogFinding> | null = null;
    let linked: Promise<AiCatalogFinding | null> | null = null;
    // The nested catalogs' fetches are counted per crawl, across the catalogs that name them.
    const nestedFetches = { left: MAX_NESTED_FETCHES };
    const aiCatalog = () => {
      catalog ??= readSiteAiCatalog({ ...context, controls, nestedFetches });
      return catalog;
    };
    state = {
      controls,
      aiCatalog,
      linkedAiCatalog: () => {
        linked ??= readLinkedAiCatalog({ ...context, controls, nestedFetches }, aiCatalog());
        return linked;
      },
      serverCards: [],
    };
    states.set(context.fetch, state);
  }
  return state;
}

/** What reading a catalog needs: the crawl's control requests and its nested-fetch allowance. */
type CatalogContext = ProbeContext & { controls: ControlRequests; nestedFetches: { left: number } };

/**
 * The site's manifest at its well-known paths: ARD's `/.well-known/ard.json` and its
 * predecessor's `/.well-known/ai-catalog.json`, asked side by side (one request more than before
 * ARD, none in sequence). The current path wins when it holds a manifest; else the older one's
 * reading stands, so every route through the AI Catalog is a route through ARD as well.
 */
async function readSiteAiCatalog(context: CatalogContext): Promise<AiCatalogFinding> {
  const [ard, legacy] = await Promise.all([
    context.fetch(siteUrl(context.origin, ARD_PATH)),
    context.fetch(siteUrl(context.origin, AI_CATALOG_PATH)),
  ]);
  const current = await readCatalogAnswer(context, ard, "well-known", []);
  if (current.status === "present") return current;
  return readCatalogAnswer(context, legacy, "well-known", []);
}

/**
 * The catalog the home page's `ai-catalog` link relation names (the home page is fetched by every
 * crawl, so looking costs nothing): fetched only when it is another URL than the well-known
 * catalog and those it nests, then read like it.
 */
async function readLinkedAiCatalog(
  context: CatalogContext,
  wellKnown: Promise<AiCatalogFinding>,
): Promise<AiCatalogFinding | null> {
  const robotsUrl = siteUrl(context.origin, "/robots.txt");
  const [home, robots, known] = await Promise.all([
    context.fetch(`${context.origin}/`),
    context.fetch(robotsUrl),
    wellKnown,
  ]);
  const homeLink = home.ok && home.status >= 200 && home.status < 300 ? linkedCatalogOf(home) : null;
  // robots.txt is fetched by every crawl, so its Agentmap line costs no request either.
  const robotsLink =
    robots.ok && robots.status === 200 && !isHtmlAnswer(robots)
      ? agentmapOf(parseRobotsTxt(robots.body).agentmaps, robotsUrl)
      : null;
  const linked = homeLink ?? robotsLink;
  if (!linked) return null;
  const read = new Set<string>([
    known.url,
    known.response.url,
    ...known.nested.flatMap((each) => (each.url ? [each.url] : [])),
  ]);
  if (read.has(linked.url)) return null;
  const response = await context.fetch(linked.url);
  return readCatalogAnswer(context, response, linked.via, [...read]);
}

async function readCatalogAnswer(
  context: CatalogContext,
  response: ProbeResponse,
  source: AiCatalogFinding["source"],
  seen: string[],
): Promise<AiCatalogFinding> {
  const where = displayUrl(response.url, context.origin);
  const unusable = describeUnusable(response, context.origin);
  const none = (status: SignalStatus, reason: string, control: CatchAllCheck | null = null): AiCatalogFinding => ({
    url: response.url,
    source,
    status,
    reason,
    catalog: null,
    response,
    control,
    nested: [],
  });
  if (!response.ok || unusable) return none(unusable!.status, unusable!.reason);
  if (response.status !== 200) return none("absent", `${where} answered ${response.status}, not 200`);
  const read = readAiCatalog(response);
  if ("problem" in read) return none("absent", `${where} ${read.problem}`);
  const control = await checkCatchAll(context, response);
  if (control.catchAll) return none("absent", `${where} is ${control.clause}`, control);
  const nested = await followNestedCatalogs(context, read, [response.url, ...seen]);
  return {
    url: read.url,
    source,
    status: "present",
    reason: `the AI Catalog at ${where}`,
    catalog: read,
    response,
    control,
    nested,
  };
}

/**
 * Follows the nested catalogs of a catalog (entries typed `application/ai-catalog+json`, by `url`
 * or inline in `data`), level by level, and appends every entry they hold to `root.reachable`
 * with the chain it was reached through. Bounded as the AI Catalog specification asks
 * ("Nested Catalog Depth and Circular References"): at most MAX_NESTING_DEPTH levels deep, a URL
 * already read in this traversal (the site's catalog included, and after redirects) is not read
 * again, so cycles end; and at most MAX_NESTED_FETCHES catalogs are fetched per crawl. Every
 * fetch goes through the crawl's fetcher, so each hop and each redirect is vetted by the guard.
 * A nested catalog is read like the site's: HTML, non-JSON or a catch-all answer is none.
 */
async function followNestedCatalogs(
  context: CatalogContext,
  root: AiCatalog,
  seen: string[],
): Promise<NestedCatalogFinding[]> {
  const visited = new Set<string>([root.url, ...seen]);
  const findings: NestedCatalogFinding[] = [];
  let level: CatalogAtDepth[] = [{ catalog: root, depth: 0 }];
  while (level.length > 0) {
    const { next, pending } = planLevel(context, level, visited, findings);
    const responses = await Promise.all(pending.map(({ entry }) => context.fetch(entry.url!)));
    for (const [i, fetch] of pending.entries()) {
      const read = await readNestedCatalog(context, fetch, responses[i]!, visited, findings);
      if (read) next.push(read);
    }
    for (const { catalog } of next) root.reachable.push(...catalog.entries);
    level = next;
  }
  return findings;
}

interface CatalogAtDepth {
  catalog: AiCatalog;
  depth: number;
}

interface PendingCatalogFetch {
  entry: AiCatalog["entries"][number];
  parent: AiCatalog;
  depth: number;
}

/**
 * One level of the traversal before any fetch: the inline catalogs read at once (into `next`),
 * the entries that will not be followed (too deep, a cycle, over the fetch budget) as findings,
 * and the URLs to fetch side by side (`pending`, each taking one of the crawl's nested fetches).
 */
function planLevel(
  context: CatalogContext,
  level: CatalogAtDepth[],
  visited: Set<string>,
  findings: NestedCatalogFinding[],
): { next: CatalogAtDepth[]; pending: PendingCatalogFetch[] } {
  const next: CatalogAtDepth[] = [];
  const pending: PendingCatalogFetch[] = [];
  for (const { catalog, depth } of level) {
    for (const entry of catalog.entries) {
      if (entry.kind !== "ai-catalog") continue;
      const depthOf = depth + 1;
      const base = { url: entry.url, parentUrl: catalog.url, depth: depthOf, response: null };
      if (depthOf > MAX_NESTING_DEPTH) {
        findings.push({
          ...base,
          status: "skipped",
          reason: `nested more than ${MAX_NESTING_DEPTH} catalogs deep, so not followed`,
        });
        continue;
      }
      if (entry.url === null) {
        if (entry.data === null) continue;
        const read = readAiCatalogDocument(entry.data, catalog.url, [...entry.via, null]);
        if ("problem" in read) {
          findings.push({ ...base, status: "absent", reason: `a catalog carried inline ${read.problem}` });
          continue;
        }
        findings.push({ ...base, status: "present", reason: "a catalog carried inline" });
        next.push({ catalog: read, depth: depthOf });
        continue;
      }
      if (visited.has(entry.url)) {
        findings.push({
          ...base,
          status: "skipped",
          reason: "already read in this traversal (a cycle), so not read again",
        });
        continue;
      }
      if (context.nestedFetches.left <= 0) {
        findings.push({
          ...base,
          status: "skipped",
          reason: `beyond the ${MAX_NESTED_FETCHES} nested catalogs a crawl fetches, so not followed`,
        });
        continue;
      }
      visited.add(entry.url);
      context.nestedFetches.left -= 1;
      pending.push({ entry, parent: catalog, depth: depthOf });
    }
  }
  return { next, pending };
}

/**
 * A fetched nested catalog judged as the site's own is (unusable, a redirect into a cycle, not
 * 200, not a catalog, the site's catch-all answer), its finding recorded; the catalog to descend
 * into, its entries marked with the chain they were reached through, or null.
 */
async function readNestedCatalog(
  context: CatalogContext,
  { entry, parent, depth }: PendingCatalogFetch,
  response: ProbeResponse,
  visited: Set<string>,
  findings: NestedCatalogFinding[],
): Promise<CatalogAtDepth | null> {
  const where = displayUrl(entry.url!, context.origin);
  const finding = (status: NestedCatalogFinding["status"], reason: string): null => {
    findings.push({ url: entry.url, parentUrl: parent.url, depth, status, reason, response });
    return null;
  };
  const unusable = describeUnusable(response, context.origin);
  if (!response.ok || unusable) return finding(unusable!.status, unusable!.reason);
  const finalUrl = response.finalUrl || response.url;
  if (finalUrl !== entry.url && visited.has(finalUrl)) {
    return finding("skipped", `${where} redirects to ${displayUrl(finalUrl, context.origin)}, already read (a cycle)`);
  }
  visited.add(finalUrl);
  if (response.status !== 200) return finding("absent", `${where} answered ${response.status}, not 200`);
  const read = readAiCatalog(response);
  if ("problem" in read) return finding("absent", `${where} ${read.problem}`);
  const control = await checkCatchAll(context, response);
  if (control.catchAll) return finding("absent", `${where} is ${control.clause}`);
  finding("present", `the nested catalog ${where}`);
  return {
    catalog: { ...read, entries: read.entries.map((own) => ({ ...own, via: [...entry.via, read.url] })) },
    depth,
  };
}

/**
 * A verdict that a probe found its document, checked against the site's catch-all: a document
 * that is the same as the answer to a path that cannot exist becomes absent, and the reason
 * names the control request. Other verdicts pass through without a control request.
 */
export async function ruleOutCatchAll<V extends ProbeVerdict>(
  context: ProbeContext,
  response: ProbeResponse,
  verdict: V,
): Promise<{ verdict: V | ProbeVerdict; control: ProbeResponse | null }> {
  if (verdict.status !== "present" || !response.ok) return { verdict, control: null };
  const controls = crawlStateOf(context).controls;
  const check = await checkCatchAll({ ...context, controls }, response);
  if (check.catchAll) {
    const where = displayUrl(response.url, context.origin);
    return { verdict: { status: "absent", reason: `${where} is ${check.clause}` }, control: check.control };
  }
  const reason = check.clause ? `${verdict.reason} (${check.clause})` : verdict.reason;
  return { verdict: { ...verdict, reason }, control: check.control };
}

/** The control requests behind some verdicts, each once, for their evidence. */
export function controlsOf(judged: readonly { control: ProbeResponse | null }[]): ProbeResponse[] {
  const seen = new Map<string, ProbeResponse>();
  for (const { control } of judged) if (control) seen.set(control.url, control);
  return [...seen.values()];
}
