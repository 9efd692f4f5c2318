/** Fixed vocabularies of the Site record (interface spec, "Site"). */

export const CATEGORIES = [
  "ai-tools",
  "developer",
  "data",
  "finance",
  "ecommerce",
  "jobs",
  "security",
  "health",
  "education",
  "communication",
  "productivity",
  "news",
  "other",
  "spam",
] as const;

export type Category = (typeof CATEGORIES)[number];

/** Buckets kept for audit only: never promoted as discovery inventory. */
export const AUDIT_ONLY_CATEGORIES = ["other", "spam"] as const satisfies readonly Category[];

/** The seven signals, in the order the spec lists them, by their Site field names. */
export const SIGNAL_FIELDS = [
  "has_llms_txt",
  "has_ai_plugin",
  "has_openapi",
  "has_structured_api",
  "has_mcp_server",
  "has_robots_ai",
  "has_schema_org",
] as const;

export type SignalField = (typeof SIGNAL_FIELDS)[number];
