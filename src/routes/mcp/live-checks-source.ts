/**
 * Where the mcp group's tools get the live checks from, for one request: the Worker entry chooses
 * (src/routes/groups.ts for the all-in-one, functions/mcp.ts for the mcp Worker), so that the
 * group's modules import the LiveChecks interface and never an implementation.
 */
import type { LiveChecks } from "../../domain/checks/live-checks.ts";
import type { Dependencies } from "../../http/context.ts";

/** The live checks for a request with these bindings and dependencies. */
export type LiveChecksSource = (bindings: Record<string, unknown>, deps: Dependencies) => LiveChecks;
