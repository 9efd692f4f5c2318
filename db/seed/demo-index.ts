/**
 * A deterministic generator of a synthetic index on reserved `.example` domains (RFC 2606): the
 * demo data `npm start` loads into an empty database, and the large indexes of the benchmarks.
 * The same seed always gives the same sites. None of these sites exist.
 *
 * `demoSites` gives the site rows alone (what the benchmarks load); `generateDemoIndex` adds what
 * the site detail shows: each site's signal evidence and its score history.
 */
import { agenticScore, SCORE_VERSION, type Signals } from "../../src/domain/scoring/agentic-score.ts";
import { type Category, SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";
import type { NewSiteRow } from "../schema/sites.ts";
import { demoSignalEvidence } from "./demo-evidence.ts";

/** mulberry32: a small, fast PRNG with a 32-bit state; good enough for varied test data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface CategoryProfile {
  category: Category;
  /** Share of the index, relative to the others. */
  weight: number;
  nouns: string[];
  does: string[];
  tags: string[];
  /** How much likelier than average its sites are to expose agent signals. */
  agentAffinity: number;
}

const PROFILES: CategoryProfile[] = [
  {
    category: "ai-tools",
    weight: 10,
    agentAffinity: 1.6,
    nouns: ["prompt", "agent", "vector", "model", "copilot", "inference", "embedding"],
    does: ["hosts language models", "runs agent workflows", "serves embeddings and vector search", "evaluates prompts"],
    tags: ["llm", "agents", "search", "embeddings"],
  },
  {
    category: "developer",
    weight: 12,
    agentAffinity: 1.5,
    nouns: ["deploy", "build", "git", "stack", "runtime", "schema", "query"],
    does: ["builds and deploys code", "hosts repositories", "monitors APIs", "generates SDKs from OpenAPI"],
    tags: ["ci", "hosting", "sdk", "monitoring"],
  },
  {
    category: "data",
    weight: 8,
    agentAffinity: 1.3,
    nouns: ["dataset", "metric", "warehouse", "insight", "census", "weather", "atlas"],
    does: [
      "publishes open datasets",
      "serves weather forecasts",
      "offers analytics dashboards",
      "exports geographic data",
    ],
    tags: ["analytics", "weather", "maps", "datasets"],
  },
  {
    category: "finance",
    weight: 8,
    agentAffinity: 1.0,
    nouns: ["ledger", "payment", "invoice", "wallet", "exchange", "treasury"],
    does: ["processes card payments", "sends invoices", "tracks expenses", "quotes exchange rates"],
    tags: ["payment", "invoicing", "banking", "fx"],
  },
  {
    category: "ecommerce",
    weight: 10,
    agentAffinity: 0.8,
    nouns: ["market", "shop", "cart", "outlet", "bazaar", "boutique"],
    does: ["sells outdoor gear", "ships groceries", "lists handmade goods", "compares prices"],
    tags: ["shopping", "payment", "catalog", "search"],
  },
  {
    category: "jobs",
    weight: 5,
    agentAffinity: 0.8,
    nouns: ["career", "talent", "hire", "resume", "recruit"],
    does: ["lists remote jobs", "matches candidates to roles", "hosts job boards"],
    tags: ["jobs", "recruiting", "search"],
  },
  {
    category: "security",
    weight: 5,
    agentAffinity: 1.1,
    nouns: ["shield", "vault", "audit", "cipher", "sentinel"],
    does: ["scans for vulnerabilities", "manages secrets", "monitors certificates"],
    tags: ["security", "identity", "compliance"],
  },
  {
    category: "health",
    weight: 5,
    agentAffinity: 0.7,
    nouns: ["clinic", "care", "pulse", "therapy", "wellness"],
    does: ["books clinic appointments", "tracks fitness", "explains medication"],
    tags: ["booking", "fitness", "telehealth"],
  },
  {
    category: "education",
    weight: 6,
    agentAffinity: 0.8,
    nouns: ["academy", "course", "tutor", "lesson", "campus"],
    does: ["teaches programming", "offers language courses", "hosts lecture notes"],
    tags: ["courses", "learning", "video"],
  },
  {
    category: "communication",
    weight: 6,
    agentAffinity: 1.0,
    nouns: ["mail", "chat", "signal", "relay", "inbox", "voice"],
    does: ["sends transactional email", "hosts team chat", "routes SMS messages"],
    tags: ["email", "messaging", "sms"],
  },
  {
    category: "productivity",
    weight: 8,
    agentAffinity: 1.1,
    nouns: ["task", "calendar", "notes", "planner", "docs", "forms"],
    does: ["schedules meetings", "manages tasks", "shares documents", "collects form answers"],
    tags: ["calendar", "documents", "automation"],
  },
  {
    category: "news",
    weight: 5,
    agentAffinity: 0.6,
    nouns: ["herald", "gazette", "daily", "times", "wire", "digest"],
    does: ["reports local news", "curates technology news", "publishes market briefs"],
    tags: ["news", "rss", "search"],
  },
  {
    category: "other",
    weight: 8,
    agentAffinity: 0.5,
    nouns: ["studio", "gallery", "club", "garden", "kitchen"],
    does: ["shows a portfolio", "shares recipes", "hosts a community forum"],
    tags: ["blog", "community"],
  },
  {
    category: "spam",
    weight: 4,
    agentAffinity: 0.3,
    nouns: ["cheap", "free-prize", "casino", "bonus", "miracle"],
    does: ["promises instant prizes", "offers miracle cures", "sells followers"],
    tags: ["ads"],
  },
];

const PREFIXES = [
  "acme",
  "blue",
  "north",
  "swift",
  "bright",
  "open",
  "clear",
  "nova",
  "terra",
  "pixel",
  "lumen",
  "atlas",
  "cedar",
  "harbor",
  "summit",
  "echo",
  "orbit",
  "maple",
  "quartz",
  "river",
];
const SUFFIXES = ["hq", "labs", "works", "io", "hub", "co", "cloud", "base", "ly", "wise"];

/** Base probability of each signal on an average site. */
const SIGNAL_BASE: Record<SignalField, number> = {
  has_llms_txt: 0.3,
  has_ai_plugin: 0.08,
  has_openapi: 0.22,
  has_structured_api: 0.3,
  has_mcp_server: 0.12,
  has_robots_ai: 0.45,
  has_schema_org: 0.55,
};

const DAY_MS = 86_400_000;

/** The seed of the demo index and of the benchmarks' indexes. */
export const DEMO_SEED = 20261122;

export interface DemoIndexOptions {
  count: number;
  seed?: number;
  /** Crawl times fall in the 30 days before this instant. */
  now?: Date;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function pickProfile(random: () => number): CategoryProfile {
  const total = PROFILES.reduce((sum, profile) => sum + profile.weight, 0);
  let roll = random() * total;
  for (const profile of PROFILES) {
    roll -= profile.weight;
    if (roll < 0) return profile;
  }
  return PROFILES[0] as CategoryProfile;
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Generates `count` synthetic sites; the same options always give the same sites. */
export function generateDemoSites(options: DemoIndexOptions): NewSiteRow[] {
  return Array.from(demoSites(options));
}

/** The same sites one at a time, for indexes too large to hold in memory at once. */
export function* demoSites({
  count,
  seed = DEMO_SEED,
  now = new Date("2026-11-01T00:00:00Z"),
}: DemoIndexOptions): Generator<NewSiteRow> {
  const random = seededRandom(seed);
  const usedLabels = new Set<string>();
  for (let index = 0; index < count; index++) {
    const profile = pickProfile(random);
    const prefix = pick(random, PREFIXES);
    const noun = pick(random, profile.nouns);
    const suffix = pick(random, SUFFIXES);
    // A repeated name gets the site's index appended, which keeps every domain unique.
    const label = `${prefix}${noun}${suffix === "ly" ? "" : "-"}${suffix}`;
    const domain = `${usedLabels.has(label) ? `${label}-${index}` : label}.example`;
    usedLabels.add(label);

    const signals = Object.fromEntries(
      SIGNAL_FIELDS.map((field) => [field, random() < Math.min(0.95, SIGNAL_BASE[field] * profile.agentAffinity)]),
    ) as Record<SignalField, boolean>;
    // An MCP server or a plugin manifest nearly always comes with a described API.
    if ((signals.has_mcp_server || signals.has_ai_plugin) && random() < 0.7) signals.has_openapi = true;

    const tags = new Set<string>([pick(random, profile.tags)]);
    if (random() < 0.5) tags.add(pick(random, profile.tags));
    if (signals.has_mcp_server) tags.add("mcp");
    if (signals.has_openapi) tags.add("openapi");
    if (signals.has_llms_txt) tags.add("llms-txt");

    const brand = `${capitalise(prefix)} ${capitalise(noun)}${random() < 0.08 ? " &amp; Co" : ""}`;
    const what = pick(random, profile.does);
    const extra =
      random() < 0.3
        ? ` Trusted by ${1 + Math.floor(random() * 900)} teams; agents can ${signals.has_mcp_server ? "call its MCP tools" : "read its documentation"}.`
        : "";
    const hasFavicon = random() < 0.65;
    const crawledAt = new Date(now.getTime() - Math.floor(random() * 30 * DAY_MS));

    yield {
      domain,
      url: `https://${domain}/`,
      name: brand,
      description: `${brand} ${what}.${extra}`,
      hasLlmsTxt: signals.has_llms_txt,
      hasAiPlugin: signals.has_ai_plugin,
      hasOpenapi: signals.has_openapi,
      hasStructuredApi: signals.has_structured_api,
      hasMcpServer: signals.has_mcp_server,
      hasRobotsAi: signals.has_robots_ai,
      hasSchemaOrg: signals.has_schema_org,
      agenticScore: agenticScore(signals),
      scoreVersion: SCORE_VERSION,
      category: profile.category,
      tags: [...tags].sort(),
      isVerified: random() < 0.05,
      isFeatured: random() < 0.01,
      hasFavicon,
      faviconUrl: hasFavicon ? `https://${domain}/favicon.ico` : null,
      lastCrawledAt: crawledAt,
      crawlStatus: "success",
      createdAt: new Date(crawledAt.getTime() - Math.floor(random() * 180 * DAY_MS)),
      updatedAt: crawledAt,
    };
  }
}

/** The signals a generated site row has. */
export function demoSiteSignals(site: NewSiteRow): Signals {
  return {
    has_llms_txt: Boolean(site.hasLlmsTxt),
    has_ai_plugin: Boolean(site.hasAiPlugin),
    has_openapi: Boolean(site.hasOpenapi),
    has_structured_api: Boolean(site.hasStructuredApi),
    has_mcp_server: Boolean(site.hasMcpServer),
    has_robots_ai: Boolean(site.hasRobotsAi),
    has_schema_org: Boolean(site.hasSchemaOrg),
  };
}

/** FNV-1a: a 32-bit hash of a string, to seed a site's own random stream. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** One past score of a site, as `site_score_history` keeps it (the site named by its domain). */
export interface DemoScoreEntry {
  domain: string;
  recordedAt: Date;
  agenticScore: number;
  scoreVersion: number;
}

export type ScoreTrend = "rising" | "dropping" | "steady";

/** The recrawl interval the cron keeps (RECRAWL_AFTER_HOURS, 168); each crawl lands within half a day of it. */
const RECRAWL_INTERVAL_MS = 7 * DAY_MS;

/**
 * A site's score history, newest first: its current score at its last crawl, then one entry per
 * weekly crawl before it, back to when it was first indexed (at most 8 crawls). A rising site
 * gained a signal now and then, so each step back may drop one it has; a dropping site lost some,
 * so each step back may add one it lacks; a steady site kept its signals. Every score comes from
 * the scoring formula. Drawn from the site's own random stream (seed and domain), so the site rows
 * and their order stay exactly as `demoSites` gives them.
 */
export function demoScoreHistory(site: NewSiteRow, seed = DEMO_SEED): { trend: ScoreTrend; entries: DemoScoreEntry[] } {
  const random = seededRandom(hashText(`${seed}:${site.domain}`));
  const roll = random();
  const trend: ScoreTrend = roll < 0.3 ? "rising" : roll < 0.5 ? "dropping" : "steady";
  const crawls = 2 + Math.floor(random() * 7);
  const firstIndexed = (site.createdAt as Date).getTime();
  let signals: Signals = demoSiteSignals(site);
  let at = (site.lastCrawledAt as Date).getTime();
  const entries: DemoScoreEntry[] = [];
  for (let crawl = 0; crawl < crawls && at >= firstIndexed; crawl++) {
    entries.push({
      domain: site.domain,
      recordedAt: new Date(at),
      agenticScore: agenticScore(signals),
      scoreVersion: SCORE_VERSION,
    });
    if (trend !== "steady" && random() < 0.6) {
      // Before a rising site's gain it lacked a signal it has now; before a drop it had one more.
      const changeable = SIGNAL_FIELDS.filter((field) => signals[field] === (trend === "rising"));
      if (changeable.length > 0) signals = { ...signals, [pick(random, changeable)]: trend !== "rising" };
    }
    at -= RECRAWL_INTERVAL_MS + Math.floor((random() - 0.5) * DAY_MS);
  }
  return { trend, entries };
}

export interface DemoIndex {
  /** The site rows of `demoSites`, each with the signal evidence its last crawl recorded. */
  sites: NewSiteRow[];
  /** Every site's score history. */
  history: DemoScoreEntry[];
}

/**
 * The demo index as `npm start` loads it: `demoSites`' rows, each with the evidence the crawler's
 * detectors record for a synthetic site with its signals (see demo-evidence.ts), and each site's
 * score history. Deterministic for the same options.
 */
export async function generateDemoIndex(options: DemoIndexOptions): Promise<DemoIndex> {
  const sites: NewSiteRow[] = [];
  const history: DemoScoreEntry[] = [];
  for (const site of demoSites(options)) {
    sites.push({ ...site, signalEvidence: await demoSignalEvidence(site.domain, demoSiteSignals(site)) });
    history.push(...demoScoreHistory(site, options.seed).entries);
  }
  return { sites, history };
}
