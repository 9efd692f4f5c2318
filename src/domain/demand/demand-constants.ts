/** Constants of provider demand (interface spec, "Demand records" and "Limits"; docs/demand.md). */
import { RECEIPT_LIFETIME_DAYS } from "../search-receipts/receipt-constants.ts";

/** Topic rows below this many search receipts are omitted (the spec's privacy threshold). */
export const TOPIC_RECEIPT_THRESHOLD = 20;
/** Action-type rows below this many action-interest receipts are omitted (the spec's threshold). */
export const ACTION_TYPE_RECEIPT_THRESHOLD = 20;
/**
 * Our choice (the spec asks for at least 20): selection counts and rates below this many result
 * selections are suppressed. Equal to the topic threshold, so a row of any family is never shown
 * while the total it belongs to is hidden; the no-differencing rule, not a larger number, is what
 * keeps small groups from being derived.
 */
export const RESULT_SELECTION_RECEIPT_THRESHOLD = 20;
/** Our choice (at least 20): interest counts and rates below this many interest receipts are suppressed. */
export const ACTION_INTEREST_RECEIPT_THRESHOLD = 20;
/**
 * Which action interests a window counts: those whose source search falls in the window, so the
 * interest rate divides interests by the very searches they came from (selections likewise).
 */
export const ACTION_INTEREST_COHORT = "source_search_in_window";

/** How long demand material is kept: the receipts' own lifetime. */
export const DEMAND_RETENTION_DAYS = RECEIPT_LIFETIME_DAYS;
export const DEMAND_MIN_DAYS = 1;
export const DEMAND_MAX_DAYS = 30;
export const DEMAND_DEFAULT_DAYS = 30;

/** Surfaces a demand answer lists, always all four in this order. */
export const DEMAND_SURFACES = ["web", "rest", "mcp", "unknown"] as const;
export type DemandSurface = (typeof DEMAND_SURFACES)[number];
