/**
 * The demand topic classifier: maps one search to one of the interface's 26 demand topics (or
 * `other`) at search time, so that the receipt can keep the label and nothing of the query.
 *
 * Deterministic and documented (docs/demand.md): the same search always gets the same topic.
 *  1. The query is lower-cased, split into words (letters and digits; everything else separates),
 *     and each word is compared with every topic's keywords: a word matches a keyword when it is
 *     the keyword, or the keyword followed by "s" or "es" (payments, taxes).
 *  2. The topic with the most matching words wins; a tie goes to the topic listed first in
 *     DEMAND_TOPICS (the interface's order).
 *  3. A query that matches nothing (or no query) falls back to the exact `tag` filter's words,
 *     then to the `category` filter (CATEGORY_TOPICS), then to `other`.
 * The classifier sees the query only in memory during the search; it is never stored or logged.
 */
import type { Category } from "../sites/site-fields.ts";

/** The interface's demand topics, in its order (ties between topics go to the earlier one). */
export const DEMAND_TOPICS = [
  "payments",
  "commerce",
  "jobs",
  "data",
  "search",
  "weather",
  "maps",
  "email",
  "messaging",
  "image",
  "video",
  "audio",
  "documents",
  "security",
  "finance",
  "health",
  "education",
  "news",
  "analytics",
  "automation",
  "productivity",
  "identity",
  "storage",
  "ai-tools",
  "developer-tools",
  "other",
] as const;
export type DemandTopic = (typeof DEMAND_TOPICS)[number];

/** The words of each topic (besides `other`). A keyword appears under one topic only. */
export const TOPIC_KEYWORDS: Record<Exclude<DemandTopic, "other">, readonly string[]> = {
  payments: [
    "payment",
    "pay",
    "checkout",
    "billing",
    "invoice",
    "invoicing",
    "card",
    "stripe",
    "paypal",
    "refund",
    "subscription",
    "wallet",
    "payout",
    "remittance",
  ],
  commerce: [
    "shop",
    "shopping",
    "store",
    "ecommerce",
    "commerce",
    "cart",
    "product",
    "catalog",
    "retail",
    "marketplace",
    "order",
    "buy",
    "merchant",
  ],
  jobs: [
    "job",
    "career",
    "hiring",
    "recruit",
    "recruiting",
    "recruitment",
    "resume",
    "vacancy",
    "talent",
    "employment",
  ],
  data: ["data", "dataset", "database", "sql", "warehouse", "etl", "csv", "scraping", "scraper", "api"],
  search: ["search", "index", "engine", "lookup", "discovery", "crawler", "crawl"],
  weather: ["weather", "forecast", "climate", "rain", "temperature", "meteo", "meteorology"],
  maps: ["map", "maps", "geocoding", "geocode", "location", "routing", "navigation", "gps", "geo", "places"],
  email: ["email", "mail", "inbox", "newsletter", "smtp", "mailbox"],
  messaging: ["message", "messaging", "chat", "sms", "whatsapp", "slack", "telegram", "notification", "push"],
  image: ["image", "photo", "picture", "png", "jpeg", "illustration", "design", "logo", "icon"],
  video: ["video", "stream", "streaming", "movie", "film", "youtube", "webinar"],
  audio: ["audio", "music", "podcast", "speech", "voice", "sound", "transcription", "tts"],
  documents: ["document", "doc", "pdf", "contract", "signature", "esign", "form", "spreadsheet", "ocr"],
  security: [
    "security",
    "secure",
    "vulnerability",
    "malware",
    "firewall",
    "encryption",
    "password",
    "threat",
    "scan",
    "pentest",
    "compliance",
  ],
  finance: [
    "finance",
    "financial",
    "bank",
    "banking",
    "stock",
    "trading",
    "crypto",
    "loan",
    "accounting",
    "tax",
    "insurance",
    "investment",
    "budget",
  ],
  health: ["health", "medical", "doctor", "clinic", "fitness", "wellness", "pharmacy", "patient", "therapy"],
  education: ["education", "course", "learn", "learning", "school", "tutor", "tutoring", "university", "lesson"],
  news: ["news", "article", "headline", "journalism", "blog", "magazine", "press"],
  analytics: ["analytics", "metric", "dashboard", "tracking", "insight", "report", "reporting", "statistic", "seo"],
  automation: ["automation", "automate", "workflow", "zapier", "integration", "cron", "bot", "rpa", "scheduler"],
  productivity: ["productivity", "calendar", "task", "todo", "note", "project", "meeting", "crm", "booking"],
  identity: ["identity", "login", "auth", "authentication", "sso", "oauth", "kyc", "verification", "signin"],
  storage: ["storage", "backup", "file", "drive", "upload", "cdn", "bucket", "hosting", "cloud"],
  "ai-tools": ["ai", "llm", "gpt", "agent", "chatbot", "model", "prompt", "ml", "embedding", "rag", "assistant"],
  "developer-tools": [
    "developer",
    "dev",
    "code",
    "coding",
    "github",
    "git",
    "sdk",
    "cli",
    "debug",
    "testing",
    "deploy",
    "devops",
    "openapi",
    "mcp",
    "graphql",
    "library",
  ],
};

/** The search's category filter, when the query says nothing: its nearest topic. */
export const CATEGORY_TOPICS: Record<Category, DemandTopic> = {
  "ai-tools": "ai-tools",
  developer: "developer-tools",
  data: "data",
  finance: "finance",
  ecommerce: "commerce",
  jobs: "jobs",
  security: "security",
  health: "health",
  education: "education",
  communication: "messaging",
  productivity: "productivity",
  news: "news",
  other: "other",
  spam: "other",
};

// keyword -> topic, built once; the unit test checks that no keyword names two topics.
const KEYWORD_TOPIC = new Map<string, Exclude<DemandTopic, "other">>();
for (const topic of DEMAND_TOPICS) {
  if (topic === "other") continue;
  for (const keyword of TOPIC_KEYWORDS[topic]) if (!KEYWORD_TOPIC.has(keyword)) KEYWORD_TOPIC.set(keyword, topic);
}

function topicOfWord(word: string): Exclude<DemandTopic, "other"> | undefined {
  return (
    KEYWORD_TOPIC.get(word) ??
    (word.endsWith("es") ? KEYWORD_TOPIC.get(word.slice(0, -2)) : undefined) ??
    (word.endsWith("s") ? KEYWORD_TOPIC.get(word.slice(0, -1)) : undefined)
  );
}

/** The best topic of a text by rules 1 and 2, or undefined when no word matches. */
function topicOfText(text: string | undefined): DemandTopic | undefined {
  if (!text) return undefined;
  const counts = new Map<DemandTopic, number>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    const topic = word ? topicOfWord(word) : undefined;
    if (topic) counts.set(topic, (counts.get(topic) ?? 0) + 1);
  }
  let best: DemandTopic | undefined;
  let bestCount = 0;
  for (const topic of DEMAND_TOPICS) {
    const count = counts.get(topic) ?? 0;
    if (count > bestCount) {
      best = topic;
      bestCount = count;
    }
  }
  return best;
}

export interface TopicInput {
  q?: string;
  tag?: string;
  category?: Category;
}

/** The demand topic of one search (see the module comment for the rules). */
export function classifyDemandTopic(input: TopicInput): DemandTopic {
  return (
    topicOfText(input.q) ??
    topicOfText(input.tag) ??
    (input.category ? CATEGORY_TOPICS[input.category] : undefined) ??
    "other"
  );
}
