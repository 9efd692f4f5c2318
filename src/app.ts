/**
 * Builds a Worker's Hono app: request id, read-only CORS, per-request dependencies, the health
 * endpoint, the endpoint groups under /api/v1, and the one error shape for everything else.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { ConfigError } from "./config.ts";
import { DomainError } from "./domain/errors.ts";
import type { AppEnv } from "./http/context.ts";
import { dependencies } from "./http/middleware/dependencies.ts";
import { readCors } from "./http/middleware/read-cors.ts";
import { HttpProblem, internalProblem, notFoundProblem, problemResponse } from "./http/problem.ts";
import { createRoutes, type RouteGroup } from "./http/routes.ts";
import { storeUnavailableProblem } from "./http/store-unavailable.ts";
import { endpointCatalog } from "./routes/endpoint-catalog.ts";
import { registerGetHealth } from "./routes/health/get-health.ts";

export const API_PREFIX = "/api/v1";

const DOMAIN_ERROR_STATUS = { invalid: 400, forbidden: 403, not_found: 404, conflict: 409, unavailable: 503 } as const;
const DOMAIN_ERROR_TITLE = {
  invalid: "Invalid request",
  forbidden: "Forbidden",
  not_found: "Not found",
  conflict: "Conflict",
  unavailable: "Service unavailable",
} as const;

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  const unavailable = storeUnavailableProblem(error);
  if (unavailable) return unavailable;
  if (error instanceof DomainError) {
    return new HttpProblem(DOMAIN_ERROR_STATUS[error.kind], error.code, DOMAIN_ERROR_TITLE[error.kind], error.message);
  }
  if (error instanceof HTTPException && error.status === 415) {
    // The interface answers every malformed body with 400; this one names what was wrong.
    return new HttpProblem(
      400,
      "INVALID_CONTENT_TYPE",
      "Invalid content type",
      "The request body must be JSON, sent with Content-Type: application/json.",
    );
  }
  if (error instanceof HTTPException && error.status < 500) {
    const malformedJson = /json/i.test(error.message);
    return new HttpProblem(
      error.status as 400,
      malformedJson ? "INVALID_JSON" : "BAD_REQUEST",
      malformedJson ? "Invalid JSON" : "Bad request",
      malformedJson ? "The request body is not valid JSON." : error.message || "Bad request.",
    );
  }
  if (error instanceof ConfigError) {
    // The operator needs the setting's name; the client gets no internals.
    console.error(error.message);
    return new HttpProblem(
      500,
      "SERVICE_MISCONFIGURED",
      "Service misconfigured",
      "The service is not configured correctly.",
    );
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
   * The groups the service offers as a whole, for the descriptor's endpoint list; a Worker that
   * serves one group still describes the whole service (descriptor and OpenAPI document). Defaults
   * to the groups it serves.
   */
  catalog?: RouteGroup[];
}

export function createApp(groups: RouteGroup[], options: CreateAppOptions = {}): OpenAPIHono<AppEnv> {
  const catalog = options.catalog ?? groups;
  const endpoints = endpointCatalog(catalog);
  const app = createRoutes();
  app.use("*", requestId({ headerName: "X-Request-Id" }));
  app.use("*", async (c, next) => {
    c.set("endpoints", endpoints);
    c.set("catalog", catalog);
    await next();
  });
  app.use("*", readCors());
  app.use("*", dependencies());

  registerGetHealth(app);
  for (const group of groups) {
    app.route(API_PREFIX, group.routes);
    if (group.siteRoutes) app.route("/", group.siteRoutes);
  }

  app.notFound((c) => problemResponse(notFoundProblem(), problemContext(c)));
  app.onError((error, c) => problemResponse(toProblem(error), problemContext(c)));
  return app;
}
