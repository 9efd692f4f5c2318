export * from "./accounts.ts";
export * from "./crawl-requests.ts";
export * from "./offers.ts";
export * from "./score-history.ts";
export * from "./search-postings.ts";
export * from "./search-receipts.ts";
export * from "./site-counts.ts";
export * from "./sites.ts";
