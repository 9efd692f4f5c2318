/** Constants of the receipt family: searches, selections and action interests (interface spec). */

/** How long a search receipt, and everything bound to it, lives. */
export const RECEIPT_LIFETIME_DAYS = 30;

/** Where a search came from; kept so demand can be reported by surface, never by caller. */
export const SEARCH_SURFACES = ["web", "rest", "mcp"] as const;
export type SearchSurface = (typeof SEARCH_SURFACES)[number];

export const ACTION_TYPES = ["quote", "trial", "demo", "booking", "application", "signup", "purchase"] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const ACTION_INTEREST_CONFIRMATION_VERSION = "svc-action-interest-v1" as const;

/** The only arguments POST /action-interests (and its MCP tool) accept, in the spec's order. */
export const ACTION_INTEREST_ARGUMENTS = [
  "search_id",
  "domain",
  "action_type",
  "caller_attests_principal_interest",
  "confirmation_version",
] as const;

export const ACTION_INTEREST_TOOL = "record_action_interest" as const;
