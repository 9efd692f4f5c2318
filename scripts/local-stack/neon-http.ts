/**
 * An endpoint speaking Neon's SQL-over-HTTP protocol (what `@neondatabase/serverless` sends in
 * HTTP mode), in front of a SqlBackend.
 *
 * Request: POST /sql with `{query, params}` or `{queries: [{query, params}, …]}` and the
 * `Neon-Connection-String` header; batches honour `Neon-Batch-Isolation-Level`,
 * `Neon-Batch-Read-Only` and `Neon-Batch-Deferrable` and run in one transaction.
 * Response: rows in array mode as Postgres text, fields with type OIDs; `{results: […]}` for a
 * batch. A database error is a 400 whose JSON carries Postgres' error fields (code, detail, …).
 */
import { createServer, type Server } from "node:http";
import { BadRequest, readJson, sendJson } from "./http.ts";
import { epochMs, type ServedCallObserver, type StoreTiming } from "./served-calls.ts";
import {
  type BatchOptions,
  POSTGRES_ERROR_MEMBERS,
  type RawResult,
  type SqlBackend,
  type SqlStatement,
} from "./sql-backends.ts";
import { answerRequestCounts, type StoreDistance, travel } from "./store-distance.ts";

function parseStatement(value: unknown): SqlStatement {
  if (typeof value !== "object" || value === null) throw new BadRequest("a query must be an object");
  const { query, params = [] } = value as { query?: unknown; params?: unknown };
  if (typeof query !== "string") throw new BadRequest("query must be a string");
  if (!Array.isArray(params) || params.some((p) => p !== null && typeof p !== "string")) {
    throw new BadRequest("params must be an array of strings and nulls");
  }
  return { query, params };
}

function parseBool(header: string | string[] | undefined): boolean | undefined {
  if (header === undefined) return undefined;
  if (header === "true") return true;
  if (header === "false") return false;
  throw new BadRequest(`invalid boolean header value: ${header}`);
}

function withArrayMode(result: RawResult) {
  return { ...result, rowAsArray: true };
}

function databaseErrorBody(error: unknown): Record<string, unknown> | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const source = error as Record<string, unknown>;
  if (typeof source.code !== "string" || !/^[0-9A-Z]{5}$/.test(source.code)) return undefined;
  const body: Record<string, unknown> = { message: String(source.message ?? "database error") };
  for (const member of POSTGRES_ERROR_MEMBERS) {
    if (source[member] !== undefined) body[member] = String(source[member]);
  }
  return body;
}

/**
 * `observe`, when given, sees every POST /sql it answered (load measurements); `distance` delays
 * and counts each one (scripts/local-stack/store-distance.ts).
 */
export function createNeonHttpServer(
  backend: SqlBackend,
  observe?: ServedCallObserver,
  distance?: StoreDistance,
): Server {
  return createServer(async (request, response) => {
    const startedAt = epochMs();
    const timing: StoreTiming = { storeMs: 0 };
    let statements = 0;
    if (observe) {
      response.once("finish", () =>
        observe({ endpoint: "sql", startedAt, endedAt: epochMs(), storeMs: timing.storeMs, statements }),
      );
    }
    if (request.method === "GET" && request.url === "/") {
      sendJson(response, 200, { ok: true, backend: backend.description });
      return;
    }
    if (answerRequestCounts(distance, request.method, request.url?.split("?")[0], response)) return;
    if (request.method !== "POST" || request.url?.split("?")[0] !== "/sql") {
      sendJson(response, 404, { message: "not found" });
      return;
    }
    await travel(distance, "sql");
    try {
      if (!request.headers["neon-connection-string"]) {
        throw new BadRequest("missing Neon-Connection-String header");
      }
      const body = (await readJson(request)) as { queries?: unknown };
      if (body && Array.isArray(body.queries)) {
        const options: BatchOptions = {
          isolationLevel: request.headers["neon-batch-isolation-level"] as string | undefined,
          readOnly: parseBool(request.headers["neon-batch-read-only"]),
          deferrable: parseBool(request.headers["neon-batch-deferrable"]),
        };
        const parsed = body.queries.map(parseStatement);
        statements = parsed.length;
        const results = await backend.runBatch(parsed, options, timing);
        sendJson(response, 200, { results: results.map(withArrayMode) });
      } else {
        statements = 1;
        sendJson(response, 200, withArrayMode(await backend.run(parseStatement(body), timing)));
      }
    } catch (error) {
      if (error instanceof BadRequest) {
        sendJson(response, 400, { message: error.message });
        return;
      }
      const databaseError = databaseErrorBody(error);
      if (databaseError) {
        sendJson(response, 400, databaseError);
        return;
      }
      sendJson(response, 500, { message: error instanceof Error ? error.message : "internal error" });
    }
  });
}
