/**
 * POST /monitor/register: an address starts watching a domain's score. No account is needed, so
 * consent comes first: the first registration of an address mails a confirmation link, and alerts
 * go only to confirmed addresses (docs/monitors.md). A domain the index does not hold yet is
 * queued for a crawl and watched from its first score.
 */
import { sql } from "drizzle-orm";
import type { Mailer } from "../../adapters/mail.ts";
import { newSecret } from "../accounts/secrets.ts";
import { normalizeEmail } from "../accounts/sign-in.ts";
import { nonPublicDomainError, refuseNonPublicDomain } from "../crawling/crawl-target.ts";
import { type CrawlContext, requestCrawls } from "../crawling/request-crawls.ts";
import { DomainError } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import type { VetHost } from "../signals/types.ts";
import { normalizeDomain } from "../sites/domain-name.ts";
import {
  CONFIRMATION_RESEND_AFTER_SECONDS,
  confirmLink,
  MAX_MONITORS_PER_EMAIL,
  unsubscribeLink,
} from "./monitor-constants.ts";

export interface MonitorContext extends CrawlContext {
  /** Undefined when mail is not configured: monitors are then unavailable (no consent mail). */
  mailer: Mailer | undefined;
  vetHost: VetHost;
  /** FETCH_ALLOW_PRIVATE: development and tests only; lifts the name rule as it does for URLs. */
  allowPrivate: boolean;
}

export interface Registration {
  domain: string;
  /** Works without sign-in: GET shows a page, POST unsubscribes (also RFC 8058 one-click). */
  unsubscribeUrl: string;
  /** True when this registration mailed a confirmation link (the address is not confirmed yet). */
  confirmationSent: boolean;
  /** True when the address already confirmed: alerts start at once. */
  confirmed: boolean;
}

export const monitorMailUnavailable = () =>
  new DomainError(
    "unavailable",
    "MAIL_UNAVAILABLE",
    "Score-drop monitors are not available right now: the confirmation e-mail cannot be sent.",
  );

export const invalidMonitorDomain = () =>
  new DomainError(
    "invalid",
    "INVALID_DOMAIN",
    "domain must be a domain name without scheme or path, such as example.com.",
  );

/**
 * The index's form of a monitor's domain, or a 400 for anything else: INVALID_DOMAIN for what is
 * no domain name, DOMAIN_NOT_ALLOWED for a special-use or private-network name (the rule every
 * entry point applies; a monitor queues a crawl of it).
 */
export function parseMonitorDomain(input: string, allowPrivate: boolean): string {
  const trimmed = input.trim();
  // The spec asks for a domain without scheme: a URL is refused rather than guessed at.
  const domain = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? null : normalizeDomain(trimmed);
  if (!domain) throw invalidMonitorDomain();
  refuseNonPublicDomain(domain, allowPrivate);
  return domain;
}

/**
 * Registers (or renews) the address's monitor of the domain and returns a fresh unsubscribe link.
 * Throws INVALID_DOMAIN (400), MONITOR_LIMIT_REACHED (429), MAIL_UNAVAILABLE (503).
 */
export async function registerMonitor({
  ctx,
  input,
}: {
  ctx: MonitorContext;
  input: { email: string; domain: string };
}): Promise<Registration> {
  const domain = parseMonitorDomain(input.domain, ctx.allowPrivate);
  if (!ctx.mailer) throw monitorMailUnavailable();
  const email = normalizeEmail(input.email);
  const indexed = await isIndexedOrCrawlable(ctx, domain);
  const tokens = await newMonitorTokens();
  const { registered, confirmationDue } = await storeRegistration(ctx, email, domain, tokens);
  if (!registered) {
    throw new DomainError(
      "rate_limited",
      "MONITOR_LIMIT_REACHED",
      `An address may watch at most ${MAX_MONITORS_PER_EMAIL} domains: unsubscribe from one first.`,
    );
  }
  const unsubscribeUrl = unsubscribeLink(ctx.origin, tokens.unsubscribe);
  if (confirmationDue) await sendConfirmation(ctx, ctx.mailer, { email, domain, tokens, unsubscribeUrl });
  if (!indexed) {
    await requestCrawls({ ctx, input: { targets: [{ domain, origin: `https://${domain}` }], reason: "monitor" } });
  }
  const state = await ctx.db.execute(sql`select confirmed_at from monitor_subscribers where email = ${email}`);
  const confirmed = (state.rows[0] as { confirmed_at: unknown } | undefined)?.confirmed_at != null;
  return { domain, unsubscribeUrl, confirmationSent: confirmationDue, confirmed };
}

/**
 * Whether the domain is in the index. One that is not must be crawlable: nothing is fetched now,
 * but a name behind which sits a private address is refused (400 DOMAIN_NOT_ALLOWED).
 */
async function isIndexedOrCrawlable(ctx: MonitorContext, domain: string): Promise<boolean> {
  const indexed = await ctx.db.execute(sql`select 1 from sites where domain = ${domain}`);
  if (indexed.rows.length > 0) return true;
  const refusal = await ctx.vetHost(domain);
  if (refusal) throw nonPublicDomainError(refusal);
  return false;
}

interface MonitorTokens {
  unsubscribe: string;
  unsubscribeHash: string;
  confirm: string;
  confirmHash: string;
}

/** The monitor's unsubscribe token and the address's confirmation token (stored only hashed). */
async function newMonitorTokens(): Promise<MonitorTokens> {
  const unsubscribe = newSecret("monitorUnsubscribe");
  const confirm = newSecret("monitorConfirm");
  return { unsubscribe, unsubscribeHash: await sha256Hex(unsubscribe), confirm, confirmHash: await sha256Hex(confirm) };
}

/**
 * One batch under the address's lock: the subscriber, the monitor (new, or renewed from
 * unsubscribed; refused at the limit), its unsubscribe token, and a confirmation due for an
 * unconfirmed address at most once per resend interval.
 */
async function storeRegistration(
  ctx: MonitorContext,
  email: string,
  domain: string,
  tokens: MonitorTokens,
): Promise<{ registered: boolean; confirmationDue: boolean }> {
  const [, , registered, , confirmation] = await ctx.db.batch([
    // One registration of an address at a time, so the limit below counts what is committed.
    ctx.db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`monitor-subscriber:${email}`}, 0))`),
    ctx.db.execute(sql`insert into monitor_subscribers (email) values (${email}) on conflict (email) do nothing`),
    // A new monitor, or a renewed one: an unsubscribed monitor comes back watching from the
    // current score; an active one keeps its baseline. Refused when the others reach the limit.
    ctx.db.execute(sql`
      insert into monitors (email, domain)
      select ${email}, ${domain}
      where (select count(*) from monitors
             where email = ${email} and domain <> ${domain} and unsubscribed_at is null) < ${MAX_MONITORS_PER_EMAIL}
      on conflict (email, domain) do update set
        unsubscribed_at = null,
        baseline_score = case when monitors.unsubscribed_at is null then monitors.baseline_score end,
        baseline_signals = case when monitors.unsubscribed_at is null then monitors.baseline_signals end,
        baseline_recorded_at = case when monitors.unsubscribed_at is null then monitors.baseline_recorded_at end
      returning id`),
    ctx.db.execute(sql`
      insert into monitor_tokens (token_sha256, monitor_id)
      select ${tokens.unsubscribeHash}, id from monitors
      where email = ${email} and domain = ${domain} and unsubscribed_at is null`),
    ctx.db.execute(sql`
      update monitor_subscribers
      set confirm_token_sha256 = ${tokens.confirmHash}, confirmation_sent_at = now()
      where email = ${email} and confirmed_at is null
        and exists (select 1 from monitors where email = ${email} and domain = ${domain} and unsubscribed_at is null)
        and (confirmation_sent_at is null
             or confirmation_sent_at < now() - make_interval(secs => ${CONFIRMATION_RESEND_AFTER_SECONDS}))
      returning confirmed_at`),
  ]);
  return { registered: registered.rows.length > 0, confirmationDue: confirmation.rows.length > 0 };
}

/** Mails the confirmation link; when it is not delivered, the next registration may send one at once. */
async function sendConfirmation(
  ctx: MonitorContext,
  mailer: Mailer,
  input: { email: string; domain: string; tokens: MonitorTokens; unsubscribeUrl: string },
): Promise<void> {
  const { email, domain, tokens, unsubscribeUrl } = input;
  try {
    await mailer.send(
      confirmationMail({ email, domain, origin: ctx.origin, confirmToken: tokens.confirm, unsubscribeUrl }),
    );
  } catch (error) {
    await ctx.db
      .execute(sql`
        update monitor_subscribers set confirm_token_sha256 = null, confirmation_sent_at = null
        where email = ${email} and confirm_token_sha256 = ${tokens.confirmHash}`)
      .catch(() => {});
    console.error("monitor confirmation mail not sent", error);
    throw monitorMailUnavailable();
  }
}

function confirmationMail(input: {
  email: string;
  domain: string;
  origin: string;
  confirmToken: string;
  unsubscribeUrl: string;
}) {
  return {
    to: input.email,
    subject: `Confirm score-drop alerts for ${input.domain}`,
    text: [
      `Someone (we hope you) asked the agent-readiness search service to e-mail this address when the agent-readiness score of ${input.domain} drops.`,
      "",
      'We send nothing to an address until it confirms. To confirm, open this link and press "Confirm":',
      confirmLink(input.origin, input.confirmToken),
      "",
      "Confirming once covers every domain this address watches. If you did not ask for this, ignore this e-mail: no alert will be sent.",
      "",
      `Stop watching ${input.domain} at any time: ${input.unsubscribeUrl}`,
    ].join("\n"),
  };
}
