export * from "./sites.ts";
