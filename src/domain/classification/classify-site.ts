/**
 * A site's category and tags, by fixed keyword rules (deterministic: the same input always gives
 * the same answer).
 *
 * Text is lower-cased and split into words (letters and digits); a keyword or phrase matches whole
 * words, with an optional plural `s`/`es`. HTML given as body text is reduced to its visible text.
 *
 * 1. Spam, first: the site is `spam` when its name or description contains a spam term, when its
 *    body text contains spam terms 3 times or more, or when its text is keyword-stuffed. Spam terms
 *    cover gambling (casino, sportsbook, betting, online slots, free spins…), pharmaceuticals sold
 *    without care (viagra, cialis, no prescription…), bought engagement (buy followers, buy
 *    likes…), payday and bad-credit loans, adult content (porn, xxx, sex cams, escorts…) and
 *    counterfeits (replica watches, counterfeit money, fake ids…). Keyword stuffing: of the text's
 *    content words (3+ letters, stop words left out), one word makes up at least 20% of 50 or
 *    more, or at least 30% (and 4 times) of the name and description's 10 or more.
 * 2. Otherwise each of the 12 discovery categories scores the weights of its keywords found in the
 *    name (counted twice) and the description (once), every occurrence counting. The highest
 *    score wins; ties go to the category listed first in CATEGORIES; no keyword at all gives
 *    `other`.
 * 3. Tags: `mcp`, `openapi`, `llms-txt` and `ai-plugin` from the signals present, then any extra
 *    tags given (such as `graphql`), then topic tags from keywords in the name and description
 *    (payment, search, auth, ecommerce, analytics, email, maps, weather, ai, crypto, database,
 *    storage, translation, video, sms). Spam sites get no topic tags. Tags are lower-case
 *    `[a-z0-9][a-z0-9-]*` (at most 40 characters); the first 12 distinct in that order are kept
 *    and returned sorted.
 */
import { CATEGORIES, type Category, type SignalField } from "../sites/site-fields.ts";
import { extractPageText } from "./site-metadata.ts";

export interface ClassifySiteInput {
  name: string;
  description: string;
  /** The home page's text; HTML is reduced to its visible text first. */
  bodyText?: string;
  signals: Readonly<Record<SignalField, boolean>>;
  /** Tags found by detectors beyond the signals themselves, such as "graphql". */
  extraTags?: readonly string[];
}

export interface SiteClassification {
  category: Category;
  tags: string[];
}

type Keywords = readonly (readonly [phrase: string, weight: number])[];

const SPAM_TERMS: readonly string[] = [
  // Gambling
  "casino",
  "online casino",
  "gambling",
  "sportsbook",
  "betting",
  "sports betting",
  "online slots",
  "slot machine",
  "free spins",
  "online poker",
  "no deposit bonus",
  // Pharmaceuticals sold without care
  "viagra",
  "cialis",
  "levitra",
  "kamagra",
  "tramadol",
  "no prescription",
  "without prescription",
  "without a prescription",
  "cheap pills",
  "cheap meds",
  // Bought engagement
  "buy followers",
  "buy instagram followers",
  "buy tiktok followers",
  "buy twitter followers",
  "buy youtube views",
  "buy likes",
  "buy views",
  "cheap followers",
  // Predatory loans
  "payday loan",
  "bad credit loan",
  "cash advance loan",
  // Adult
  "porn",
  "porno",
  "xxx",
  "sex cam",
  "adult videos",
  "adult dating",
  "escort service",
  "escorts",
  "hentai",
  // Counterfeits
  "replica watch",
  "replica watches",
  "replica handbag",
  "replica bag",
  "replica rolex",
  "buy counterfeit",
  "counterfeit money",
  "counterfeit bill",
  "counterfeit banknote",
  "fake id",
  "fake passport",
  "fake diploma",
];

const CATEGORY_KEYWORDS: Readonly<Record<Exclude<Category, "other" | "spam">, Keywords>> = {
  "ai-tools": [
    ["ai", 2],
    ["artificial intelligence", 3],
    ["llm", 3],
    ["gpt", 2],
    ["chatgpt", 2],
    ["chatbot", 3],
    ["machine learning", 3],
    ["generative", 2],
    ["genai", 3],
    ["prompt", 2],
    ["agentic", 2],
    ["ai agent", 2],
    ["copilot", 2],
    ["neural", 2],
    ["inference", 2],
    ["embedding", 2],
    ["image generation", 3],
    ["text to speech", 2],
    ["speech to text", 2],
    ["openai", 2],
    ["model context protocol", 3],
  ],
  developer: [
    ["developer", 2],
    ["api", 1],
    ["sdk", 2],
    ["code", 1],
    ["coding", 2],
    ["programming", 2],
    ["github", 2],
    ["git", 1],
    ["repository", 1],
    ["deploy", 2],
    ["deployment", 2],
    ["hosting", 2],
    ["devops", 3],
    ["ci cd", 2],
    ["open source", 2],
    ["library", 1],
    ["framework", 1],
    ["documentation", 1],
    ["webhook", 2],
    ["cli", 1],
    ["kubernetes", 3],
    ["docker", 3],
    ["serverless", 3],
    ["graphql", 2],
    ["backend", 2],
    ["frontend", 2],
    ["compiler", 2],
    ["debugging", 2],
    ["npm", 2],
  ],
  data: [
    ["data", 2],
    ["dataset", 3],
    ["analytics", 2],
    ["open data", 2],
    ["statistics", 2],
    ["database", 2],
    ["data warehouse", 2],
    ["etl", 3],
    ["visualization", 2],
    ["visualisation", 2],
    ["dashboard", 1],
    ["scraping", 2],
    ["geospatial", 3],
    ["geocoding", 3],
    ["map", 1],
    ["weather", 2],
    ["forecast", 2],
    ["climate", 1],
    ["census", 2],
    ["time series", 2],
  ],
  finance: [
    ["finance", 3],
    ["financial", 2],
    ["bank", 2],
    ["banking", 3],
    ["payment", 2],
    ["invoice", 2],
    ["invoicing", 2],
    ["accounting", 3],
    ["tax", 2],
    ["stock", 2],
    ["trading", 2],
    ["crypto", 2],
    ["cryptocurrency", 3],
    ["bitcoin", 3],
    ["blockchain", 2],
    ["wallet", 1],
    ["loan", 2],
    ["credit", 1],
    ["insurance", 2],
    ["fintech", 3],
    ["currency", 2],
    ["currencies", 2],
    ["exchange rate", 3],
    ["money", 1],
    ["budget", 1],
    ["budgeting", 2],
    ["investing", 2],
    ["investment", 2],
    ["mortgage", 2],
    ["payroll", 2],
    ["billing", 1],
  ],
  ecommerce: [
    ["shop", 2],
    ["shopping", 2],
    ["store", 1],
    ["online store", 2],
    ["ecommerce", 3],
    ["e commerce", 3],
    ["cart", 2],
    ["checkout", 1],
    ["buy", 1],
    ["product", 1],
    ["marketplace", 2],
    ["retail", 2],
    ["shipping", 1],
    ["deal", 1],
    ["coupon", 2],
    ["fashion", 2],
    ["clothing", 2],
    ["shoe", 1],
    ["storefront", 2],
  ],
  jobs: [
    ["job", 3],
    ["career", 2],
    ["hiring", 3],
    ["recruiting", 3],
    ["recruitment", 3],
    ["recruiter", 3],
    ["resume", 2],
    ["cv", 1],
    ["employer", 2],
    ["employment", 2],
    ["talent", 1],
    ["freelance", 2],
    ["freelancer", 2],
    ["remote work", 2],
    ["vacancy", 3],
    ["vacancies", 3],
    ["interview", 1],
    ["applicant", 2],
  ],
  security: [
    ["security", 3],
    ["cybersecurity", 3],
    ["cyber security", 3],
    ["vulnerability", 3],
    ["vulnerabilities", 3],
    ["malware", 3],
    ["antivirus", 3],
    ["password", 2],
    ["encryption", 3],
    ["firewall", 3],
    ["authentication", 2],
    ["identity", 1],
    ["threat", 2],
    ["phishing", 3],
    ["privacy", 1],
    ["zero trust", 3],
    ["penetration testing", 3],
    ["pentest", 3],
    ["vpn", 2],
    ["sso", 1],
    ["two factor", 2],
    ["2fa", 2],
    ["ddos", 3],
  ],
  health: [
    ["health", 3],
    ["healthcare", 3],
    ["medical", 3],
    ["medicine", 2],
    ["doctor", 2],
    ["clinic", 2],
    ["patient", 2],
    ["hospital", 3],
    ["fitness", 2],
    ["nutrition", 2],
    ["wellness", 2],
    ["mental health", 2],
    ["therapy", 2],
    ["therapist", 2],
    ["pharmacy", 2],
    ["symptom", 2],
    ["diet", 1],
    ["dental", 2],
    ["dentist", 2],
    ["telehealth", 3],
    ["telemedicine", 3],
    ["workout", 1],
  ],
  education: [
    ["education", 3],
    ["educational", 2],
    ["learn", 1],
    ["learning", 1],
    ["course", 2],
    ["school", 2],
    ["university", 3],
    ["student", 2],
    ["teacher", 2],
    ["tutorial", 1],
    ["lesson", 2],
    ["academy", 2],
    ["study", 1],
    ["exam", 2],
    ["classroom", 2],
    ["tutoring", 3],
    ["tutor", 2],
    ["curriculum", 2],
    ["elearning", 3],
    ["homework", 2],
    ["quiz", 1],
  ],
  communication: [
    ["email", 2],
    ["mail", 1],
    ["messaging", 3],
    ["message", 1],
    ["chat", 2],
    ["sms", 3],
    ["voice", 1],
    ["video call", 2],
    ["video conferencing", 3],
    ["newsletter", 2],
    ["notification", 1],
    ["inbox", 2],
    ["telephony", 3],
    ["social network", 2],
    ["forum", 2],
    ["voip", 3],
    ["mailing list", 2],
  ],
  productivity: [
    ["productivity", 3],
    ["task", 2],
    ["todo", 2],
    ["to do list", 2],
    ["project management", 3],
    ["note", 1],
    ["note taking", 2],
    ["calendar", 2],
    ["schedule", 1],
    ["scheduling", 2],
    ["workflow", 2],
    ["automation", 2],
    ["spreadsheet", 2],
    ["collaboration", 2],
    ["crm", 2],
    ["document", 1],
    ["form", 1],
    ["time tracking", 2],
    ["kanban", 3],
    ["wiki", 1],
  ],
  news: [
    ["news", 3],
    ["journalism", 3],
    ["newspaper", 3],
    ["headline", 2],
    ["breaking news", 2],
    ["magazine", 2],
    ["blog", 1],
    ["article", 1],
    ["reporting", 1],
    ["press", 1],
    ["politics", 2],
    ["editorial", 2],
    ["current events", 2],
    ["podcast", 1],
  ],
};

const TOPIC_TAGS: readonly (readonly [tag: string, phrases: readonly string[]])[] = [
  ["payment", ["payment", "checkout", "billing", "invoice", "credit card"]],
  ["search", ["search", "search engine"]],
  [
    "auth",
    ["auth", "authentication", "login", "oauth", "sso", "single sign on", "sign in", "identity provider", "2fa"],
  ],
  ["ecommerce", ["ecommerce", "e commerce", "shop", "shopping", "online store", "marketplace", "cart"]],
  ["analytics", ["analytics", "metrics", "dashboard", "statistics"]],
  ["email", ["email", "newsletter", "inbox", "smtp"]],
  ["maps", ["map", "geocoding", "geospatial", "mapping"]],
  ["weather", ["weather", "meteorology", "meteorological"]],
  ["ai", ["ai", "artificial intelligence", "llm", "gpt", "machine learning", "chatbot", "genai", "generative"]],
  ["crypto", ["crypto", "cryptocurrency", "bitcoin", "blockchain", "ethereum"]],
  ["database", ["database", "postgres", "postgresql", "sql"]],
  ["storage", ["storage", "file sharing", "backup"]],
  ["translation", ["translation", "translate"]],
  ["video", ["video", "video streaming"]],
  ["sms", ["sms"]],
];

const SIGNAL_TAGS: readonly (readonly [SignalField, string])[] = [
  ["has_mcp_server", "mcp"],
  ["has_openapi", "openapi"],
  ["has_llms_txt", "llms-txt"],
  ["has_ai_plugin", "ai-plugin"],
];

const STOP_WORDS = new Set(
  (
    "the and for you your with our are this that from all not but can will have has more was were its out new get " +
    "use how what who why about into than then them they their there here also any one two may per such each other " +
    "which when where while been being had his her him she very just only over most some these those off via now " +
    "own same both few many much did does doing would could should let yes"
  ).split(" "),
);

const MAX_TAGS = 12;
/** Spam terms and stuffing are judged on the start of the page, as a reader meets it. */
const BODY_TEXT_MAX = 20_000;
const TAG_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Lower-case words joined by single spaces, so phrases match across punctuation. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const patternCache = new Map<string, RegExp>();

function phrasePattern(phrase: string): RegExp {
  let pattern = patternCache.get(phrase);
  if (!pattern) {
    const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?:s|es)?(?![\\p{L}\\p{N}])`, "gu");
    patternCache.set(phrase, pattern);
  }
  return pattern;
}

function countPhrase(text: string, phrase: string): number {
  if (!text) return 0;
  return text.match(phrasePattern(phrase))?.length ?? 0;
}

function countSpamTerms(text: string): number {
  return SPAM_TERMS.reduce((total, term) => total + countPhrase(text, term), 0);
}

/** The share of the most frequent content word, and how many content words there are. */
function topWordShare(text: string): { share: number; top: number; total: number } {
  const counts = new Map<string, number>();
  let total = 0;
  for (const word of text.split(" ")) {
    if (word.length < 3 || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
    total++;
  }
  const top = Math.max(0, ...counts.values());
  return { share: total === 0 ? 0 : top / total, top, total };
}

/** True when the text repeats one word far beyond what prose does (see the module comment). */
function isKeywordStuffed(heading: string, all: string): boolean {
  const whole = topWordShare(all);
  if (whole.total >= 50 && whole.share >= 0.2) return true;
  const head = topWordShare(heading);
  return head.total >= 10 && head.top >= 4 && head.share >= 0.3;
}

/** True when a site reads as spam (rule 1 of the module comment). */
export function isSpamSite(name: string, description: string, bodyText = ""): boolean {
  const heading = normalise(`${name} ${description}`);
  if (countSpamTerms(heading) > 0) return true;
  const body = normalise(bodyText);
  if (countSpamTerms(body) >= 3) return true;
  return isKeywordStuffed(heading, `${heading} ${body}`);
}

/** Scores each discovery category (rule 2); categories with no keyword are left out. */
export function scoreCategories(name: string, description: string): Partial<Record<Category, number>> {
  const nameText = normalise(name);
  const descriptionText = normalise(description);
  const scores: Partial<Record<Category, number>> = {};
  for (const [category, keywords] of Object.entries(CATEGORY_KEYWORDS) as [Category, Keywords][]) {
    let score = 0;
    for (const [phrase, weight] of keywords) {
      score += weight * (2 * countPhrase(nameText, phrase) + countPhrase(descriptionText, phrase));
    }
    if (score > 0) scores[category] = score;
  }
  return scores;
}

function pickCategory(scores: Partial<Record<Category, number>>): Category {
  let best: Category = "other";
  let bestScore = 0;
  for (const category of CATEGORIES) {
    const score = scores[category] ?? 0;
    if (score > bestScore) {
      best = category;
      bestScore = score;
    }
  }
  return best;
}

function topicTags(name: string, description: string): string[] {
  const text = normalise(`${name} ${description}`);
  return TOPIC_TAGS.filter(([, phrases]) => phrases.some((phrase) => countPhrase(text, phrase) > 0)).map(
    ([tag]) => tag,
  );
}

/** The category and tags of a site (see the module comment for the rules). */
export function classifySite(input: ClassifySiteInput): SiteClassification {
  const bodyText = input.bodyText ?? "";
  const text = /<[a-z!/]/i.test(bodyText) ? extractPageText(bodyText, BODY_TEXT_MAX) : bodyText.slice(0, BODY_TEXT_MAX);
  const spam = isSpamSite(input.name, input.description, text);
  const candidates = [
    ...SIGNAL_TAGS.filter(([field]) => input.signals[field]).map(([, tag]) => tag),
    ...(input.extraTags ?? []).map((tag) => tag.trim().toLowerCase()),
    ...(spam ? [] : topicTags(input.name, input.description)),
  ];
  const tags = [...new Set(candidates.filter((tag) => TAG_PATTERN.test(tag)))].slice(0, MAX_TAGS).sort();
  const category = spam ? "spam" : pickCategory(scoreCategories(input.name, input.description));
  return { category, tags };
}
