import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { checkDependencies, storeProbes } from "../../domain/health/check-dependencies.ts";
import type { AppEnv } from "../../http/context.ts";
import { HttpProblem } from "../../http/problem.ts";
import { problemResponses } from "../shared/schemas.ts";

const DependencyStatusSchema = z.object({ ok: z.boolean(), latency_ms: z.number().int() });

/** Which optional capabilities this Worker has: each is on only when its settings are. */
const CapabilitiesSchema = z
  .object({
    mail: z.enum(["configured", "not_configured", "misconfigured"]),
    payments: z.enum(["configured", "not_configured", "misconfigured"]),
    signing: z.enum(["configured", "not_configured", "misconfigured"]),
  })
  .openapi("Capabilities", {
    description:
      "Optional capabilities and whether their settings are present: one that is not configured answers 503 on its endpoints while everything else works.",
  });

export const HealthSchema = z
  .object({
    status: z.literal("ok"),
    database: DependencyStatusSchema,
    redis: DependencyStatusSchema,
    capabilities: CapabilitiesSchema,
  })
  .openapi("Health");

export const getHealthRoute = createRoute({
  method: "get",
  path: "/healthz",
  operationId: "getHealth",
  tags: ["health"],
  summary: "Reachability of the database and Redis",
  responses: {
    200: { description: "Both stores answer", content: { "application/json": { schema: HealthSchema } } },
    ...problemResponses(503),
  },
});

export function registerGetHealth(app: OpenAPIHono<AppEnv>) {
  app.openapi(getHealthRoute, async (c) => {
    const { db, redis, config } = c.var.deps;
    const report = await checkDependencies(storeProbes({ db, redis }), config.HEALTH_TIMEOUT_MS);
    c.header("Cache-Control", "no-store");
    if (!report.ok) {
      const down = [!report.database.ok && "database", !report.redis.ok && "redis"].filter(Boolean);
      throw new HttpProblem(
        503,
        "DEPENDENCY_UNAVAILABLE",
        "Service unavailable",
        `Not reachable: ${down.join(" and ")}.`,
        { database: report.database, redis: report.redis, capabilities: config.capabilityStatus },
        { "Cache-Control": "no-store", "Retry-After": "5" },
      );
    }
    return c.json(
      { status: "ok" as const, database: report.database, redis: report.redis, capabilities: config.capabilityStatus },
      200,
    );
  });
}
