/**
 * The relevance benchmark's judged queries (scripts/bench-relevance.ts): intents as an agent
 * would type them, each with the services of the corpus that serve it, graded by reading their
 * names and descriptions: 2 = the service's main purpose, 1 = a substantial part of it. A site
 * not listed is judged not relevant (0).
 *
 * How they were made (docs/benchmarks.md, "Relevance"): the queries were written first, before
 * any ranking was run on the corpus; each query's pool (the first 10 of every compared ranking,
 * shown in an order that hides which ranking found them) was then read and graded. The tier
 * rules were chosen after judging, on these same queries: there is no held-out set in the
 * repository, so the figures of the chosen rule are not a held-out measurement.
 */
export interface Judgement {
  q: string;
  intent: string;
  /** Grade by domain (as scripts/relevance-corpus.ts names the APIs). */
  grades: Record<string, 1 | 2>;
}

export const JUDGEMENTS: Judgement[] = [
  { q: "send sms", intent: "send text messages to phones", grades: {} },
  { q: "text message", intent: "send text messages to phones (spelling of sms)", grades: {} },
  { q: "transactional email", intent: "send e-mail from an application", grades: {} },
  { q: "e-mail validation", intent: "check that an e-mail address exists", grades: {} },
  { q: "geocoding", intent: "turn an address into coordinates", grades: {} },
  { q: "weather forecast", intent: "weather forecasts for a place", grades: {} },
  { q: "currency exchange rates", intent: "rates between currencies", grades: {} },
  { q: "stock quotes", intent: "stock market prices", grades: {} },
  { q: "payments", intent: "take payments from customers", grades: {} },
  { q: "translate text", intent: "machine translation", grades: {} },
  { q: "speech to text", intent: "transcribe audio", grades: {} },
  { q: "text to speech", intent: "synthesise speech from text", grades: {} },
  { q: "image recognition", intent: "label or detect what is in images", grades: {} },
  { q: "sentiment analysis", intent: "the sentiment of a text", grades: {} },
  { q: "url shortener", intent: "shorten links", grades: {} },
  { q: "pdf", intent: "create or convert PDF documents", grades: {} },
  { q: "dns", intent: "manage DNS records", grades: {} },
  { q: "whois", intent: "who owns a domain name", grades: {} },
  { q: "ip geolocation", intent: "where an IP address is", grades: {} },
  { q: "phone number validation", intent: "check a phone number", grades: {} },
  { q: "calendar", intent: "read and write calendar events", grades: {} },
  { q: "video hosting", intent: "upload and serve videos", grades: {} },
  { q: "music", intent: "music catalogue or streaming", grades: {} },
  { q: "news", intent: "news articles", grades: {} },
  { q: "recipes", intent: "cooking recipes", grades: {} },
  { q: "flights", intent: "flight search or status", grades: {} },
  { q: "public transport", intent: "transit timetables and departures", grades: {} },
  { q: "crm", intent: "customer relationship management", grades: {} },
  { q: "invoices", intent: "create and send invoices", grades: {} },
  { q: "e-signature", intent: "sign documents electronically", grades: {} },
  { q: "password manager", intent: "store and share passwords", grades: {} },
  { q: "two factor authentication", intent: "one-time codes for login", grades: {} },
  { q: "screenshot", intent: "screenshots of web pages", grades: {} },
  { q: "web search", intent: "search the web", grades: {} },
  { q: "object storage", intent: "store files in buckets", grades: {} },
  { q: "machine learning", intent: "train or run machine learning models", grades: {} },
  { q: "chatbot", intent: "build a conversational bot", grades: {} },
  { q: "helpdesk", intent: "customer support tickets", grades: {} },
  { q: "project management", intent: "projects and tasks", grades: {} },
  { q: "package tracking", intent: "track parcels and shipments", grades: {} },
  { q: "cryptocurrency", intent: "cryptocurrency prices or trading", grades: {} },
  { q: "movies", intent: "film information", grades: {} },
  { q: "sports", intent: "sports scores and statistics", grades: {} },
  { q: "barcode", intent: "read or generate barcodes", grades: {} },
  { q: "uptime monitoring", intent: "watch that a site is up", grades: {} },
  { q: "kubernetes", intent: "run containers on Kubernetes", grades: {} },
  { q: "webhooks", intent: "send or receive webhooks", grades: {} },
  { q: "sign up", intent: "user sign-up and accounts (spelling of signup)", grades: {} },
];
