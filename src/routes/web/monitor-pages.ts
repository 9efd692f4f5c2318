/**
 * The monitor pages: GET /monitor (the sign-up form, `?domain=` fills it in), POST /monitor
 * (registers: the same operation and limits as POST /api/v1/monitor/register), GET/POST
 * /monitor/confirm and GET/POST /monitor/unsubscribe (views: src/web/pages/monitor.tsx).
 *
 * The unsubscribe POST takes its token from the URL (RFC 8058: the mail provider POSTs
 * `List-Unsubscribe=One-Click` to the List-Unsubscribe URL) or from the page's form, and is not
 * refused cross-origin: the token is the credential, a provider's POST carries no Origin of ours,
 * and a forged request without the token does nothing.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { DOCUMENT_CACHE_CONTROL } from "../../domain/descriptor/site-documents.ts";
import { MONITOR_PATHS } from "../../domain/monitors/monitor-constants.ts";
import {
  confirmSubscriber,
  findMonitorByUnsubscribeToken,
  findSubscriberByConfirmToken,
  unsubscribeMonitor,
} from "../../domain/monitors/monitor-links.ts";
import { parseMonitorDomain, registerMonitor } from "../../domain/monitors/register-monitor.ts";
import type { AppEnv } from "../../http/context.ts";
import { consumeRateLimit } from "../../http/middleware/rate-limit.ts";
import { refuseCrossOriginBrowserMutations } from "../../http/middleware/refuse-cross-origin.ts";
import { renderConfirmPage, renderMonitorPage, renderUnsubscribePage } from "../../web/pages/monitor.tsx";
import { MONITOR_REGISTER_LIMIT } from "../monitor/register-monitor.ts";
import { attempt, pageHeaders } from "./page-errors.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function formFields(c: Context<AppEnv>): Promise<Record<string, string>> {
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  return Object.fromEntries(
    Object.entries(body).flatMap(([name, value]) => (typeof value === "string" ? [[name, value.trim()]] : [])),
  );
}

/**
 * A page that carries a token in its URL: never cached. The pages' own `Referrer-Policy:
 * same-origin` already keeps the URL from other sites; `no-referrer` would also make the browser
 * send `Origin: null` with the page's own form, which the same-origin check refuses.
 */
const tokenPageHeaders = (c: Context<AppEnv>) => pageHeaders(c, "no-store");

export function registerMonitorPages(app: OpenAPIHono<AppEnv>) {
  app.get(MONITOR_PATHS.signUp, async (c) => {
    const domain = c.req.query("domain")?.slice(0, 253);
    return c.html(
      await renderMonitorPage(c.var.deps.origin, { kind: "ask", domain }),
      200,
      pageHeaders(c, DOCUMENT_CACHE_CONTROL),
    );
  });

  app.post(MONITOR_PATHS.signUp, refuseCrossOriginBrowserMutations(), async (c) => {
    const { origin } = c.var.deps;
    const headers = pageHeaders(c, "no-store");
    const { email = "", domain = "" } = await formFields(c);
    const refuse = async (error: string, status: 400 | 429 | 503 = 400, extra: Record<string, string> = {}) =>
      c.html(await renderMonitorPage(origin, { kind: "ask", domain, email, error }), status, { ...extra, ...headers });
    if (!EMAIL.test(email) || email.length > 254) return refuse("That is not an e-mail address.");
    const outcome = await attempt(async () => {
      parseMonitorDomain(domain, c.var.deps.allowPrivate);
      await consumeRateLimit(c, MONITOR_REGISTER_LIMIT);
      return registerMonitor({ ctx: c.var.deps, input: { email, domain } });
    });
    if (!outcome.ok) return refuse(outcome.message, outcome.status as 400 | 429 | 503, outcome.headers);
    const registration = outcome.value;
    const page = await renderMonitorPage(origin, {
      kind: "registered",
      domain: registration.domain,
      email,
      confirmed: registration.confirmed,
      unsubscribeUrl: registration.unsubscribeUrl,
    });
    return c.html(page, 201, headers);
  });

  // A GET only shows what the button confirms (the address and its domains); it writes nothing.
  app.get(MONITOR_PATHS.confirm, async (c) => {
    const { origin } = c.var.deps;
    const token = c.req.query("token") ?? "";
    if (!token) {
      const error = "The link has no token: open the link from the e-mail as it is.";
      return c.html(await renderConfirmPage(origin, { kind: "failed", error }), 400, tokenPageHeaders(c));
    }
    const outcome = await attempt(() => findSubscriberByConfirmToken({ ctx: c.var.deps, input: { token } }));
    if (!outcome.ok) {
      const page = await renderConfirmPage(origin, { kind: "failed", error: outcome.message });
      return c.html(page, outcome.status, { ...outcome.headers, ...tokenPageHeaders(c) });
    }
    const { email, domains, confirmed } = outcome.value;
    const state = confirmed
      ? ({ kind: "confirmed", email, domains } as const)
      : ({ kind: "ask", token, email, domains } as const);
    return c.html(await renderConfirmPage(origin, state), 200, tokenPageHeaders(c));
  });

  app.post(MONITOR_PATHS.confirm, refuseCrossOriginBrowserMutations(), async (c) => {
    const { origin } = c.var.deps;
    const { token = "" } = await formFields(c);
    const outcome = await attempt(() => confirmSubscriber({ ctx: c.var.deps, input: { token } }));
    if (!outcome.ok) {
      const page = await renderConfirmPage(origin, { kind: "failed", error: outcome.message });
      return c.html(page, outcome.status, { ...outcome.headers, ...tokenPageHeaders(c) });
    }
    const page = await renderConfirmPage(origin, { kind: "confirmed", ...outcome.value });
    return c.html(page, 200, tokenPageHeaders(c));
  });

  // A GET only shows the button: mail scanners open links, and a safe method writes nothing.
  app.get(MONITOR_PATHS.unsubscribe, async (c) => {
    const { origin } = c.var.deps;
    const token = c.req.query("token") ?? "";
    const outcome = await attempt(() => findMonitorByUnsubscribeToken({ ctx: c.var.deps, input: { token } }));
    if (!outcome.ok) {
      const page = await renderUnsubscribePage(origin, { kind: "failed", error: outcome.message });
      return c.html(page, outcome.status, { ...outcome.headers, ...tokenPageHeaders(c) });
    }
    const { domain, active } = outcome.value;
    const state = active ? ({ kind: "ask", token, domain } as const) : ({ kind: "done", domain } as const);
    return c.html(await renderUnsubscribePage(origin, state), 200, tokenPageHeaders(c));
  });

  app.post(MONITOR_PATHS.unsubscribe, async (c) => {
    const { origin } = c.var.deps;
    const fields = await formFields(c);
    const token = c.req.query("token") || fields.token || "";
    const outcome = await attempt(() => unsubscribeMonitor({ ctx: c.var.deps, input: { token } }));
    if (!outcome.ok) {
      const page = await renderUnsubscribePage(origin, { kind: "failed", error: outcome.message });
      return c.html(page, outcome.status, { ...outcome.headers, ...tokenPageHeaders(c) });
    }
    return c.html(await renderUnsubscribePage(origin, { kind: "done", ...outcome.value }), 200, tokenPageHeaders(c));
  });
}
