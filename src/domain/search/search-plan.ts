/**
 * Which lists a search of filters alone reads, and what it checks on the way (a search with words
 * is ranked instead: ranked-search.ts). Every filter is a set of lists in the index: the tag, the
 * signal-bit values its flags allow (all 16 when none is set, so that list set holds every site),
 * and the category's lists of those same signal-bit values (so a category with flags is one set,
 * as short as the pair is rare, where a category list walked with a flag check would skip most of
 * what it reads). A site matches when it is in one list of every set. The search reads the set
 * with the fewest sites (the driver) in organic order and checks the other filters on each site
 * it meets: signals and category from the index entry itself, the tag first against the entry's
 * signature, then by a probe of its list. So its cost is bounded by the shortest list, however
 * the filters correlate with each other or with the score. The choice only changes the cost,
 * never the results.
 */
import { AUDIT_ONLY_CATEGORIES, type Category } from "../sites/site-fields.ts";
import type { TermStatistics } from "./search-statistics.ts";
import {
  allowedSignalBits,
  categoryTerm,
  EMPTY_SIGNATURE,
  type Signature,
  signalTerm,
  tagTerm,
} from "./search-terms.ts";
import type { SiteFilters } from "./site-filters.ts";

export type DriverKind = "tag" | "category" | "signals";

export interface SearchPlan {
  /** Whether the lists are those of the audit-only buckets (an explicit other or spam). */
  audit: boolean;
  /** The lists read, merged in organic order. */
  driver: { kind: DriverKind; terms: string[] };
  /** The checks on each index entry; undefined when the driver already ensures them. */
  signals?: { mask: number; bits: number };
  category?: Category;
  /** The tag's signature when the tag is checked rather than read; empty otherwise. */
  signature: Signature;
  exactTag?: string;
}

export const isAuditCategory = (category: Category | undefined) =>
  category !== undefined && (AUDIT_ONLY_CATEGORIES as readonly string[]).includes(category);

/** The plan of a search of filters alone; `tagSignature` is required with a tag. */
export function planSearch(input: {
  filters: SiteFilters;
  tagSignature?: Signature;
  statistics: TermStatistics;
}): SearchPlan {
  const { filters, statistics } = input;
  const estimate = (terms: string[]) =>
    terms.reduce((sum, term) => sum + (statistics.listLength(term) ?? Number.POSITIVE_INFINITY), 0);
  const signals = allowedSignalBits(filters);
  // In order of preference when the estimates tie (or are unknown): the tag is the most
  // selective, then the category.
  const candidates: { kind: DriverKind; terms: string[] }[] = [
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
  const driver = candidates
    .map((candidate) => ({ ...candidate, sites: estimate(candidate.terms) }))
    .reduce((best, candidate) => (candidate.sites < best.sites ? candidate : best));
  const exactTag = filters.tag !== undefined && driver.kind !== "tag" ? filters.tag : undefined;
  if (exactTag !== undefined && !input.tagSignature) throw new Error("a tag filter needs the tag's signature");
  return {
    audit: isAuditCategory(filters.category),
    driver: { kind: driver.kind, terms: driver.terms },
    // The signal and category lists hold only sites whose signal pattern the flags allow.
    ...(driver.kind === "tag" && signals.mask !== 0 ? { signals: { mask: signals.mask, bits: signals.bits } } : {}),
    ...(driver.kind !== "category" && filters.category ? { category: filters.category } : {}),
    signature: exactTag !== undefined && input.tagSignature ? input.tagSignature : EMPTY_SIGNATURE,
    ...(exactTag !== undefined ? { exactTag } : {}),
  };
}
