/**
 * The legacy family: the retired ChatGPT plugin manifest, mirrored from its signal.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */

import { fixWith, mirrorSignal } from "../check-helpers.ts";

const FIX = {
  aiPlugin: fixWith(
    "ChatGPT plugins were retired in April 2024: publish an MCP server and an OpenAPI document instead.",
  ),
} as const;

export const checkAiPlugin = mirrorSignal(
  "has_ai_plugin",
  FIX.aiPlugin,
  " ChatGPT plugins were retired in April 2024: agents no longer read this manifest.",
);
