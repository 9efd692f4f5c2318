/**
 * Spellings of the same thing that agents type differently. The index appends each variant's
 * canonical word to a site's words (SQL function `search_spellings`, migration 0029) and a query's
 * variants are rewritten to it here, so "e-mail", "e mail" and "email" all meet. A site keeps its
 * own words too ("text messages" still finds "text"). Pairs that English stemming already joins
 * (geocoding and geocode: both "geocod") need no entry. test/unit/search-spellings.test.ts checks
 * that this table and the SQL function agree.
 */

/** Letters and digits end a word here as `[[:alnum:]]` does in the SQL function. */
const BEFORE = String.raw`(^|[^\p{L}\p{N}])`;
const AFTER = String.raw`(?![\p{L}\p{N}])`;
const GAP = String.raw`[-\s]+`;

export interface Spelling {
  canonical: string;
  /** The variant's pattern after a word boundary; `whole` when it must also end a word. */
  pattern: string;
  whole: boolean;
  /** Texts that must meet the canonical word (tests and docs). */
  examples: string[];
}

export const SPELLINGS: readonly Spelling[] = [
  { canonical: "email", pattern: `e${GAP}mail`, whole: false, examples: ["e-mail", "E-Mail", "e mail"] },
  { canonical: "signup", pattern: `sign${GAP}up`, whole: true, examples: ["sign-up", "sign up"] },
  { canonical: "signin", pattern: `sign${GAP}in`, whole: true, examples: ["sign-in", "sign in"] },
  { canonical: "login", pattern: `log${GAP}in`, whole: true, examples: ["log-in", "log in"] },
  { canonical: "webhook", pattern: `web${GAP}hook`, whole: false, examples: ["web-hook", "web hooks"] },
  {
    canonical: "sms",
    pattern: String.raw`text${GAP}messag\p{L}*`,
    whole: false,
    examples: ["text message", "text messages", "text messaging", "text-messaging"],
  },
  { canonical: "ecommerce", pattern: `e${GAP}commerce`, whole: false, examples: ["e-commerce", "e commerce"] },
  { canonical: "chatbot", pattern: `chat${GAP}bot`, whole: false, examples: ["chat bot", "chat-bots"] },
  { canonical: "realtime", pattern: `real${GAP}time`, whole: true, examples: ["real-time", "real time"] },
];

const REWRITES = SPELLINGS.map(
  (spelling) =>
    [
      new RegExp(`${BEFORE}${spelling.pattern}${spelling.whole ? AFTER : ""}`, "giu"),
      `$1${spelling.canonical}`,
    ] as const,
);

/** The canonical words of the variants a text uses, as `search_spellings` appends them. */
export function spellingsIn(text: string): string[] {
  return SPELLINGS.filter((_, index) => {
    const [pattern] = REWRITES[index] as (typeof REWRITES)[number];
    pattern.lastIndex = 0;
    return pattern.test(text);
  }).map((spelling) => spelling.canonical);
}

/** The query with every variant written as its canonical word. */
export function canonicalSpellings(q: string): string {
  return REWRITES.reduce((text, [pattern, canonical]) => text.replace(pattern, canonical), q);
}
