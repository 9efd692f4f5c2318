import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import {
  MAX_MONITORS_PER_EMAIL,
  MONITOR_REGISTRATIONS_PER_CLIENT_PER_HOUR,
} from "../../domain/monitors/monitor-constants.ts";
import { parseMonitorDomain, registerMonitor } from "../../domain/monitors/register-monitor.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { MonitorRegisteredSchema, MonitorRegistrationSchema } from "./schemas.ts";

/** Registrations per client; each may mail a confirmation to somebody. */
export const MONITOR_REGISTER_LIMIT = {
  name: "monitor-register",
  limit: MONITOR_REGISTRATIONS_PER_CLIENT_PER_HOUR,
  window: "1 h",
} as const;

export const registerMonitorRoute = createRoute({
  method: "post",
  path: "/monitor/register",
  operationId: "registerMonitor",
  tags: ["monitor"],
  summary: "Watch a domain's score and get an e-mail when it drops",
  description: `Registers the address for alerts when the domain's agent-readiness score drops (a lower score, or a signal lost). No account is needed, so consent comes first: the first registration of an address e-mails a confirmation link, and alerts go only to a confirmed address — nobody can sign a stranger up for mail. A domain not yet in the index is queued for a crawl and watched from its first score. Registering a domain again renews its monitor and answers a new unsubscribe_url. At most ${MAX_MONITORS_PER_EMAIL} active monitors per address (429 MONITOR_LIMIT_REACHED) and ${MONITOR_REGISTRATIONS_PER_CLIENT_PER_HOUR} registrations per client per hour (429); 503 MAIL_UNAVAILABLE when mail is not configured or the confirmation could not be sent.`,
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: MonitorRegistrationSchema } } } },
  responses: {
    201: {
      description: "Registered; alerts start once the address is confirmed",
      content: { "application/json": { schema: MonitorRegisteredSchema } },
    },
    ...problemResponses(400, 429, 503),
  },
});

export function registerRegisterMonitor(app: OpenAPIHono<AppEnv>) {
  app.openapi(registerMonitorRoute, async (c) => {
    const { email, domain } = c.req.valid("json");
    // Bad input is a 400 before any quota is spent.
    parseMonitorDomain(domain, c.var.deps.allowPrivate);
    await spendRateLimit(c, MONITOR_REGISTER_LIMIT);
    const registration = await registerMonitor({ ctx: c.var.deps, input: { email, domain } });
    c.header("Cache-Control", "no-store");
    return c.json({ ok: true, domain: registration.domain, unsubscribe_url: registration.unsubscribeUrl }, 201);
  });
}
