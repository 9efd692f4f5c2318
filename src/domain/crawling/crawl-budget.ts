/**
 * The time budget of one crawl, check or MCP verification, every fetch included. Apart from the
 * crawler so that pages naming it (the progress note) do not bundle the crawler and its detectors.
 */
export const CRAWL_TIME_BUDGET_MS = 15_000;
