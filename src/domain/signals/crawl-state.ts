/**
 * What the detectors of one crawl share besides the memoised fetcher: the control requests (one
 * per shape, see catch-all.ts), the AI Catalog as read once, and the MCP server cards found on
 * the way to an endpoint. The crawl hands all three on in its result, so later readers (the
 * checklist) need not fetch them again.
 *
 * The state belongs to the crawl's fetcher: every detector of a crawl is given the same one, so a
 * detector run alone (tests, /verify-mcp) gets a state of its own without any setup.
 */
import { AI_CATALOG_PATH, type AiCatalog, readAiCatalog } from "./ai-catalog.ts";
import { describeUnusable, displayUrl, type ProbeVerdict, type SignalStatus, siteUrl } from "./blocking.ts";
import { type CatchAllCheck, type ControlRequests, checkCatchAll, createControlRequests } from "./catch-all.ts";
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

/** The AI Catalog as the crawl read it. */
export interface AiCatalogFinding {
  url: string;
  /** present: a catalog; absent: none there (or a catch-all page); blocked or error: could not tell. */
  status: SignalStatus;
  /** A clause saying what was seen. */
  reason: string;
  catalog: AiCatalog | null;
  response: ProbeResponse;
  /** What the control request said of it, when one was asked. */
  control: CatchAllCheck | null;
}

export interface CrawlState {
  controls: ControlRequests;
  /** The AI Catalog, fetched and read once per crawl. */
  aiCatalog(): Promise<AiCatalogFinding>;
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
    state = {
      controls,
      aiCatalog: () => {
        catalog ??= readSiteAiCatalog({ ...context, controls });
        return catalog;
      },
      serverCards: [],
    };
    states.set(context.fetch, state);
  }
  return state;
}

async function readSiteAiCatalog(context: ProbeContext & { controls: ControlRequests }): Promise<AiCatalogFinding> {
  const response = await context.fetch(siteUrl(context.origin, AI_CATALOG_PATH));
  const where = displayUrl(response.url, context.origin);
  const unusable = describeUnusable(response, context.origin);
  const none = (status: SignalStatus, reason: string, control: CatchAllCheck | null = null): AiCatalogFinding => ({
    url: response.url,
    status,
    reason,
    catalog: null,
    response,
    control,
  });
  if (!response.ok || unusable) return none(unusable!.status, unusable!.reason);
  if (response.status !== 200) return none("absent", `${where} answered ${response.status}, not 200`);
  const read = readAiCatalog(response);
  if ("problem" in read) return none("absent", `${where} ${read.problem}`);
  const control = await checkCatchAll(context, response);
  if (control.catchAll) return none("absent", `${where} is ${control.clause}`, control);
  return {
    url: read.url,
    status: "present",
    reason: `the AI Catalog at ${where}`,
    catalog: read,
    response,
    control,
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
