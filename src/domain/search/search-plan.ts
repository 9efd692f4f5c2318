/**
 * Which lists a search reads, and what it checks on the way. Every condition of a search is a
 * set of lists in the index: a word's lexemes, the tag, the signal-bit values its flags allow (all
 * 16 when none is set, so that list set holds every site), and the category's lists of those same
 * signal-bit values (so a category with flags is one set, as short as the pair is rare, where a
 * category list walked with a flag check would skip most of what it reads). A site matches when it
 * is in one list of every set. The search reads the set with the fewest sites (the driver) in
 * organic order and checks the other conditions on each site it meets:
 * - signals and category from the index entry itself;
 * - words and the tag first against the entry's signature, then, for the few that pass, against
 *   the site's own vector and tags.
 * So its cost is bounded by the shortest list, however the conditions correlate with each other
 * or with the score. The choice only changes the cost, never the results.
 */
import { AUDIT_ONLY_CATEGORIES, type Category } from "../sites/site-fields.ts";
import type { TermStatistics } from "./search-statistics.ts";
import {
  allowedSignalBits,
  beginningTerm,
  categoryTerm,
  EMPTY_SIGNATURE,
  isWide,
  mergeSignatures,
  type Signature,
  type StemTerms,
  signalTerm,
  tagTerm,
  WIDE_RANGE_LIMIT,
} from "./search-terms.ts";
import type { SiteFilters } from "./site-filters.ts";

export type DriverKind = "word" | "tag" | "category" | "signals";

export interface SearchPlan {
  /** Whether the lists are those of the audit-only buckets (an explicit other or spam). */
  audit: boolean;
  /**
   * The lists read: `terms`, merged in organic order, or for a wide word `range`, the postings of
   * every term in [low, high) read at once and sorted.
   */
  driver: { kind: DriverKind; terms: string[]; range?: { low: string; high: string } };
  /** The checks on each index entry; undefined when the driver already ensures them. */
  signals?: { mask: number; bits: number };
  category?: Category;
  /** Empty when no word or tag is checked. */
  signature: Signature;
  /** Word stems the driver does not ensure, checked against the site's vector. */
  exactStems: StemTerms[];
  exactTag?: string;
}

export const isAuditCategory = (category: Category | undefined) =>
  category !== undefined && (AUDIT_ONLY_CATEGORIES as readonly string[]).includes(category);

interface Candidate {
  kind: DriverKind;
  terms: string[];
  range?: { low: string; high: string };
  stem?: StemTerms;
  /** Estimated sites across the terms' lists; Infinity when unknown. */
  sites: number;
}

/**
 * The plan of a search, or null when it cannot match anything (a word whose lexemes are in no
 * list). `stems` come from the first step (search-terms.ts); `tagSignature` is required with a tag.
 */
export function planSearch(input: {
  stems: StemTerms[];
  filters: SiteFilters;
  tagSignature?: Signature;
  statistics: TermStatistics;
}): SearchPlan | null {
  const { stems, filters, statistics } = input;
  const listed = stems.filter((stem) => !isWide(stem));
  if (listed.some((stem) => stem.terms.length === 0)) return null;

  const estimate = (terms: string[]) =>
    terms.reduce((sum, term) => sum + (statistics.listLength(term) ?? Number.POSITIVE_INFINITY), 0);
  const signals = allowedSignalBits(filters);
  // A wide word is read as one range unless the statistics put it past WIDE_RANGE_LIMIT postings
  // (then it is common enough to be checked on the sites another list yields).
  const ranged: Candidate[] = stems.filter(isWide).flatMap((stem) => {
    const postings = statistics.rangeLength(stem.range.low, stem.range.high);
    if (postings !== undefined && postings > WIDE_RANGE_LIMIT) return [];
    return [{ kind: "word" as const, terms: [], range: stem.range, stem, sites: postings ?? Number.POSITIVE_INFINITY }];
  });
  const lists: Omit<Candidate, "sites">[] = [
    ...listed.map((stem) => ({ kind: "word" as const, terms: stem.terms, stem })),
    ...(filters.tag ? [{ kind: "tag" as const, terms: [tagTerm(filters.tag)] }] : []),
    ...(filters.category
      ? [
          {
            kind: "category" as const,
            terms: signals.values.map((bits) => categoryTerm(filters.category as string, bits)),
          },
        ]
      : []),
    { kind: "signals" as const, terms: signals.values.map(signalTerm) },
  ];
  // A registered wide beginning's list holds exactly the sites of its word, in one list however
  // many lexemes begin with it.
  const beginnings: Omit<Candidate, "sites">[] = stems.flatMap((stem) =>
    stem.beginning === null ? [] : [{ kind: "word" as const, terms: [beginningTerm(stem.beginning)], stem }],
  );
  const estimated = (candidate: Omit<Candidate, "sites">) => ({ ...candidate, sites: estimate(candidate.terms) });
  // In order of preference when the estimates tie (or are unknown): words are the most selective,
  // and one list is cheaper than a range or a merge of many.
  const candidates = [...beginnings.map(estimated), ...ranged, ...lists.map(estimated)];
  const driver = candidates.reduce((best, candidate) => (candidate.sites < best.sites ? candidate : best));

  const exactStems = stems.filter((stem) => stem !== driver.stem);
  const exactTag = filters.tag !== undefined && driver.kind !== "tag" ? filters.tag : undefined;
  let signature = exactStems.reduce((merged, stem) => mergeSignatures(merged, stem.signature), EMPTY_SIGNATURE);
  if (exactTag !== undefined) {
    if (!input.tagSignature) throw new Error("a tag filter needs the tag's signature");
    signature = mergeSignatures(signature, input.tagSignature);
  }
  return {
    audit: isAuditCategory(filters.category),
    driver: { kind: driver.kind, terms: driver.terms, ...(driver.range ? { range: driver.range } : {}) },
    // The signal and category lists hold only sites whose signal pattern the flags allow.
    ...(driver.kind !== "signals" && driver.kind !== "category" && signals.mask !== 0
      ? { signals: { mask: signals.mask, bits: signals.bits } }
      : {}),
    ...(driver.kind !== "category" && filters.category ? { category: filters.category } : {}),
    signature,
    exactStems,
    ...(exactTag !== undefined ? { exactTag } : {}),
  };
}
