/**
 * Builds a Worker's Hono app: request id, read-only CORS, request size limits, per-request
 * dependencies, the health endpoint, the endpoint groups under /api/v1 (and the ARD registry under
 * /ard/v1), 404 or 405 for what no
 * route answers, and the one error shape for everything else.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { ConfigError } from "./config.ts";
import { DomainError } from "./domain/errors.ts";
import type { AppEnv } from "./http/context.ts";
import { domainErrorProblem } from "./http/domain-error-table.ts";
import { unroutedRequestProblem } from "./http/method-not-allowed.ts";
import { dependencies } from "./http/middleware/dependencies.ts";
import { readCors } from "./http/middleware/read-cors.ts";
import { limitRequestBody, limitRequestHead } from "./http/middleware/request-size.ts";
import { rateLimitHeaders } from "./http/middleware/spend-rate-limit.ts";
import { HttpProblem, internalProblem, problemResponse } from "./http/problem.ts";
import { API_PREFIX, ARD_PREFIX, createRoutes, type RouteGroup } from "./http/routes.ts";
import { storeUnavailableProblem } from "./http/store-unavailable.ts";
import { endpointCatalog } from "./routes/endpoint-catalog.ts";
import { registerGetHealth } from "./routes/health/get-health.ts";
import { MCP_PATH } from "./routes/mcp/mcp-path.ts";

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  const unavailable = storeUnavailableProblem(error);
  if (unavailable) return unavailable;
  if (error instanceof DomainError) return domainErrorProblem(error);
  if (error instanceof HTTPException && error.status === 415) {
    // The interface answers every malformed body with 400; this one names what was wrong.
    return new HttpProblem(
      400,
      "INVALID_CONTENT_TYPE",
      "The request body must be JSON, sent with Content-Type: application/json.",
    );
  }
  if (error instanceof HTTPException && error.status < 500) {
    const malformedJson = /json/i.test(error.message);
    return new HttpProblem(
      error.status as 400,
      malformedJson ? "INVALID_JSON" : "BAD_REQUEST",
      malformedJson ? "The request body is not valid JSON." : error.message || "Bad request.",
    );
  }
  if (error instanceof ConfigError) {
    // The operator needs the setting's name; the client gets no internals.
    console.error(error.message);
    return new HttpProblem(500, "SERVICE_MISCONFIGURED", "The service is not configured correctly.");
  }
  console.error("unhandled error", error);
  return internalProblem();
}

function problemContext(c: Context<AppEnv>) {
  return {
    requestId: c.get("requestId") ?? "unknown",
    origin: c.get("deps")?.origin ?? new URL(c.req.url).origin,
  };
}

export interface CreateAppOptions {
  /**
   * Every endpoint of the service as a whole (operationId → description), for the descriptor: a
   * Worker that serves one group still describes the whole service. Defaults to the endpoints of
   * the groups it serves. Workers pass SERVICE_ENDPOINTS (src/generated/), so that none has to
   * bundle the other groups' routes to describe them.
   */
  endpoints?: Record<string, string>;
}

export function createApp(groups: RouteGroup[], options: CreateAppOptions = {}): OpenAPIHono<AppEnv> {
  const endpoints = options.endpoints ?? endpointCatalog(groups);
  const app = createRoutes();
  app.use("*", requestId({ headerName: "X-Request-Id" }));
  app.use("*", async (c, next) => {
    c.set("endpoints", endpoints);
    await next();
  });
  app.use("*", readCors({ except: [MCP_PATH] }));
  app.use("*", limitRequestHead());
  app.use("*", limitRequestBody());
  app.use("*", dependencies());
  app.use("*", rateLimitHeaders());

  registerGetHealth(app);
  for (const group of groups) {
    app.route(API_PREFIX, group.routes);
    if (group.ardRoutes) app.route(ARD_PREFIX, group.ardRoutes);
    if (group.siteRoutes) app.route("/", group.siteRoutes);
  }

  const unroutedProblem = unroutedRequestProblem(app.routes);
  app.notFound((c) => problemResponse(unroutedProblem(c), problemContext(c)));
  app.onError((error, c) => problemResponse(toProblem(error), problemContext(c)));
  return app;
}
