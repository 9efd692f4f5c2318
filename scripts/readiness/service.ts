/**
 * The checker's two calls to the service: `POST {base}/check` (a check run by the service,
 * optionally with a priority key) and `GET {base}/site/{domain}` (the index's last crawl, for a
 * comparison). Both answer plain words on failure: a problem+json's title and detail, or what
 * went wrong on the way.
 */
import { CheckResultSchema } from "../../src/routes/shared/check-schemas.ts";
import type { CheckBody, ChecklistEntry } from "./check-body.ts";

/** A call to the service that gave no usable answer; the message is for the person running the checker. */
export class ServiceError extends Error {}

/** The site detail fields a comparison reads (GET /site/{domain}). */
export interface IndexedSite {
  domain: string;
  agentic_score: number;
  crawl_status: string;
  last_crawled_at: string;
  signal_evidence: Record<string, { status: string; reason: string }>;
  checks?: ChecklistEntry[];
  [field: string]: unknown;
}

/** A base URL as given (with or without a trailing slash), the API root ending in /api/v1 or not. */
export function normalizeBase(base: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new ServiceError(`--api must be the service's API root, an absolute http(s) URL: ${base} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ServiceError(`--api must be an http(s) URL, not ${url.protocol}`);
  }
  return url.href.replace(/\/+$/, "");
}

async function problemText(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const problem = JSON.parse(text) as { title?: unknown; detail?: unknown; code?: unknown };
    const words = [problem.title, problem.detail].filter((part) => typeof part === "string").join(": ");
    if (words) return `${words}${typeof problem.code === "string" ? ` (${problem.code})` : ""}`;
  } catch {
    // Not a problem document: the status says what there is to say.
  }
  return response.statusText || "no detail";
}

async function call(fetchImpl: typeof fetch, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    throw new ServiceError(`the service at ${new URL(url).origin} could not be reached${cause}`);
  }
}

const SERVICE_CHECK_RESULT = CheckResultSchema.omit({ checks: true, checks_summary: true }).loose();

/** POST {base}/check. Returns the body exactly as the service sent it, once it reads as a check result. */
export async function checkThroughService(options: {
  base: string;
  url: string;
  apiKey?: string;
  fetchImpl?: typeof fetch;
}): Promise<{ body: CheckBody; text: string }> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const response = await call(fetchImpl, `${options.base}/check`, {
    method: "POST",
    headers,
    body: JSON.stringify({ url: options.url }),
  });
  if (!response.ok) {
    throw new ServiceError(`the service refused the check (HTTP ${response.status}): ${await problemText(response)}`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ServiceError("the service's answer to POST /check is not JSON");
  }
  // Read loosely: a newer service may carry more than this checker knows, and it is kept as sent;
  // one without the checklist is still a check result (its checks are then not available).
  if (!SERVICE_CHECK_RESULT.safeParse(parsed).success) {
    throw new ServiceError("the service's answer to POST /check is not a check result");
  }
  return { body: parsed as CheckBody, text };
}

/** GET {base}/site/{domain}: the index's last crawl of the domain, or null when it is not indexed. */
export async function readIndexedSite(options: {
  base: string;
  domain: string;
  fetchImpl?: typeof fetch;
}): Promise<IndexedSite | null> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const response = await call(fetchImpl, `${options.base}/site/${encodeURIComponent(options.domain)}`, {
    headers: { accept: "application/json" },
  });
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) {
    throw new ServiceError(
      `the index's entry for ${options.domain} could not be read (HTTP ${response.status}): ${await problemText(response)}`,
    );
  }
  const body = (await response.json().catch(() => null)) as IndexedSite | null;
  if (!body || typeof body.agentic_score !== "number" || typeof body.signal_evidence !== "object") {
    throw new ServiceError(`the index's entry for ${options.domain} is not a site detail`);
  }
  return body;
}
