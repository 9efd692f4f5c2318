/**
 * What changed between the index's last crawl of a domain and this check: the score, each
 * signal whose status moved, each check whose status moved (when both carry a checklist) and the
 * crawl status. Pure: the caller reads the index (service.ts).
 */
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";
import { type CheckBody, checklistOf } from "./check-body.ts";
import type { IndexedSite } from "./service.ts";

export interface Comparison {
  domain: string;
  /** False when the index holds no entry for the domain: nothing to compare. */
  indexed: boolean;
  lastCrawledAt?: string;
  score?: { before: number; after: number };
  crawlStatus?: { before: string; after: string };
  signals: { field: SignalField; before: string; after: string }[];
  checks: { id: string; title: string; before: string; after: string }[];
  /** False when the index's entry carries no checklist, so check changes could not be seen. */
  checklistCompared: boolean;
}

/** The changes from `indexed` (null when the domain is not in the index) to `body`. */
export function compareWithIndex(domain: string, indexed: IndexedSite | null, body: CheckBody): Comparison {
  if (indexed === null) return { domain, indexed: false, signals: [], checks: [], checklistCompared: false };
  const signals = SIGNAL_FIELDS.flatMap((field) => {
    // The index keeps evidence from the crawls that recorded it; the flag is there for every site.
    const before = indexed.signal_evidence[field]?.status ?? (indexed[field] === true ? "present" : "absent");
    const after = body.signals[field].status;
    return before === after ? [] : [{ field, before, after }];
  });
  const beforeChecks = checklistOf(indexed);
  const afterChecks = checklistOf(body);
  const checks =
    beforeChecks && afterChecks
      ? afterChecks.flatMap((check) => {
          const before = beforeChecks.find((entry) => entry.id === check.id)?.status ?? "not checked";
          return before === check.status ? [] : [{ id: check.id, title: check.title, before, after: check.status }];
        })
      : [];
  return {
    domain,
    indexed: true,
    lastCrawledAt: indexed.last_crawled_at,
    score: { before: indexed.agentic_score, after: body.agentic_score },
    crawlStatus: { before: indexed.crawl_status, after: body.crawl_status },
    signals,
    checks,
    checklistCompared: beforeChecks !== null && afterChecks !== null,
  };
}
