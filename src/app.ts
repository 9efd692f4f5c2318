/**
 * Builds a Worker's Hono app: request id, read-only CORS, per-request dependencies, the health
 * endpoint, the endpoint groups under /api/v1, and the one error shape for everything else.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { ConfigError } from "./config.ts";
import type { AppEnv } from "./http/context.ts";
import { dependencies } from "./http/middleware/dependencies.ts";
import { readCors } from "./http/middleware/read-cors.ts";
import {
  HttpProblem,
  internalProblem,
  notFoundProblem,
  problemResponse,
} from "./http/problem.ts";
import { validationHook } from "./http/validation.ts";
import { registerGetHealth } from "./routes/health/get-health.ts";

export const API_PREFIX = "/api/v1";

/** A group of endpoints deployable as its own Worker; its routes are relative to /api/v1. */
export interface RouteGroup {
  name: string;
  routes: OpenAPIHono<AppEnv>;
  /** Routes served at the site root instead (pages, documents); optional. */
  siteRoutes?: OpenAPIHono<AppEnv>;
}

/** A Hono app whose request validation fails in the one problem shape. */
export function createRoutes(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
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

export function createApp(groups: RouteGroup[]): OpenAPIHono<AppEnv> {
  const app = createRoutes();
  app.use("*", requestId({ headerName: "X-Request-Id" }));
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
