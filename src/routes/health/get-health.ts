import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { checkDependencies, storeProbes } from "../../domain/health/check-dependencies.ts";
import { checkRetentionLag } from "../../domain/health/retention-lag.ts";
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

/** The retention alarm (docs/privacy-retention.md): reported, never a reason for a 503. */
const RetentionSchema = z
  .object({
    status: z.enum(["ok", "behind", "unknown"]).openapi({
      description:
        "behind: some record has been overdue for removal longer than grace_seconds (the retention job is missing runs or failing); unknown: the check did not answer in time",
    }),
    oldest_overdue_seconds: z
      .number()
      .int()
      .min(0)
      .nullable()
      .openapi({ description: "How long the oldest record past its retention has been overdue; null when none is" }),
    oldest_overdue_material: z
      .string()
      .nullable()
      .openapi({ description: "The table or kind of personal data that record belongs to; null when none is overdue" }),
    grace_seconds: z.number().int().openapi({
      description: "Overdue up to this long is normal running (a day's records leave once their whole day is over)",
    }),
  })
  .openapi("RetentionLag");

export const HealthSchema = z
  .object({
    status: z.literal("ok"),
    database: DependencyStatusSchema,
    redis: DependencyStatusSchema,
    capabilities: CapabilitiesSchema,
    retention: RetentionSchema,
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
    // The retention check runs beside the probes, with the same deadline; it never fails the answer.
    const [report, retention] = await Promise.all([
      checkDependencies(storeProbes({ db, redis }), config.HEALTH_TIMEOUT_MS),
      checkRetentionLag(db, config.HEALTH_TIMEOUT_MS),
    ]);
    c.header("Cache-Control", "no-store");
    if (!report.ok) {
      const down = [!report.database.ok && "database", !report.redis.ok && "redis"].filter(Boolean);
      throw new HttpProblem(
        503,
        "DEPENDENCY_UNAVAILABLE",
        `Not reachable: ${down.join(" and ")}.`,
        { database: report.database, redis: report.redis, capabilities: config.capabilityStatus },
        { "Cache-Control": "no-store", "Retry-After": "5" },
      );
    }
    return c.json(
      {
        status: "ok" as const,
        database: report.database,
        redis: report.redis,
        capabilities: config.capabilityStatus,
        retention,
      },
      200,
    );
  });
}
