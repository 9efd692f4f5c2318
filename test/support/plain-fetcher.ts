/**
 * A SiteFetcher without the guards, for Node tests of detectors against the local fixture web:
 * redirects followed by hand (at most 5), 5 s per fetch, readUntil honoured.
 */
import type { ProbeRequest, ProbeResponse, SiteFetcher } from "../../src/domain/signals/types.ts";

export function createPlainFetcher(timeoutMs = 5000): SiteFetcher {
  return async (url: string, request: ProbeRequest = {}): Promise<ProbeResponse> => {
    const redirects: string[] = [];
    let current = url;
    let method: string = request.method ?? "GET";
    let body: string | undefined = request.body;
    try {
      for (let hop = 0; hop <= 5; hop++) {
        const response = await fetch(current, {
          method,
          headers: request.headers,
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(timeoutMs),
        });
        const location = response.headers.get("location");
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          current = new URL(location, current).href;
          redirects.push(current);
          // As the guarded fetcher and browsers do: 303, and 301/302 after a POST, become a GET.
          if ((response.status === 303 && method !== "HEAD") || (method === "POST" && response.status < 303)) {
            method = "GET";
            body = undefined;
          }
          continue;
        }
        let text = "";
        if (response.body) {
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            text += value;
            if (request.readUntil?.(text)) {
              await reader.cancel();
              break;
            }
          }
        }
        const contentType = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() || null;
        return {
          ok: true,
          url,
          finalUrl: current,
          redirects,
          status: response.status,
          headers: response.headers,
          contentType,
          body: text,
        };
      }
      return {
        ok: false,
        url,
        finalUrl: current,
        redirects,
        failure: "too_many_redirects",
        message: "more than 5 redirects",
      };
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === "TimeoutError";
      return {
        ok: false,
        url,
        finalUrl: current,
        redirects,
        failure: timedOut ? "timeout" : "network",
        message: timedOut ? `no answer within ${timeoutMs} ms` : String(error),
      };
    }
  };
}
