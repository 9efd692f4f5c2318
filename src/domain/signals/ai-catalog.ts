/**
 * The AI Catalog / ARD manifest as the signal detectors read it: the one reader of the format is
 * readers/ard.ts (shared with the checklist's ai_catalog check), re-exported here for the
 * detectors that import it from this module.
 */
export * from "../readers/ard.ts";
