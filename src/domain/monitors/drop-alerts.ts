/**
 * The score-drop alerts (docs/monitors.md), run by the monitor group's cron:
 *
 * 1. Detect, in one statement: for every active monitor whose domain has a crawl newer than its
 *    baseline, a drop (a lower score, or a signal present at the baseline and not now) of a
 *    confirmed address is inserted as an alert keyed by (monitor, drop crawl), ON CONFLICT DO
 *    NOTHING, and the baseline moves to that crawl. A first score becomes the baseline.
 * 2. Send, bounded: up to ALERTS_PER_RUN unsent alerts are claimed for ALERT_CLAIM_SECONDS by one
 *    statement (SKIP LOCKED), so two runs at once never take the same alert; each is mailed and
 *    marked sent. A failed send is released with a growing delay and tried again by a later run.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import type { Mailer, MailMessage } from "../../adapters/mail.ts";
import { newSecret } from "../accounts/secrets.ts";
import { sha256Hex } from "../sha256.ts";
import type { SignalEvidence } from "../signals/types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../sites/site-fields.ts";
import {
  ALERT_CLAIM_SECONDS,
  ALERT_HISTORY_ENTRIES,
  ALERT_MAX_ATTEMPTS,
  ALERTS_PER_RUN,
  unsubscribeLink,
} from "./monitor-constants.ts";

/** Everything an alert e-mail says. */
export interface DropAlert {
  email: string;
  domain: string;
  siteName: string;
  previousScore: number;
  score: number;
  /** Signals present at the previous crawl and not at this one, in the spec's order. */
  lostSignals: SignalField[];
  /** The latest crawl's evidence of every signal. */
  evidence: Partial<Record<SignalField, SignalEvidence>>;
  /** Newest first. */
  history: { recordedAt: string; score: number }[];
  unsubscribeUrl: string;
  /** The service's public origin, for links to the site's report. */
  origin: string;
}

/** Turns an alert into the e-mail's words (the web group's view); headers are added here. */
export type ComposeAlert = (alert: DropAlert) => Pick<MailMessage, "subject" | "text" | "html">;

export interface AlertContext {
  db: Database;
  mailer: Mailer | undefined;
  origin: string;
}

export interface AlertRunSummary {
  detected: number;
  baselinesMoved: number;
  sent: number;
  failed: number;
}

// The sites table names its signal columns as the Site record does (has_llms_txt, …).
const presentSignals = sql.raw(
  `array_remove(array[${SIGNAL_FIELDS.map((field) => `case when s.${field} then '${field}' end`).join(", ")}]::text[], null)`,
);

/** Step 1: records new drops and moves baselines, in one statement. */
export async function detectDrops(ctx: { db: Database }): Promise<{ detected: number; baselinesMoved: number }> {
  const result = await ctx.db.execute(sql`
    with latest as (
      select m.id as monitor_id, m.baseline_score, m.baseline_signals, m.baseline_recorded_at,
             s.agentic_score as score, ${presentSignals} as signals, h.recorded_at,
             sub.confirmed_at is not null as confirmed
      from monitors m
      join monitor_subscribers sub on sub.email = m.email
      join sites s on s.domain = m.domain
      cross join lateral (select max(recorded_at) as recorded_at from site_score_history where site_id = s.id) h
      where m.unsubscribed_at is null and h.recorded_at is not null
        and (m.baseline_recorded_at is null or h.recorded_at > m.baseline_recorded_at)
    ), drops as (
      insert into monitor_alerts (monitor_id, crawl_recorded_at, previous_score, score, lost_signals)
      select monitor_id, recorded_at, baseline_score, score,
             array(select lost from unnest(baseline_signals) as lost where not (lost = any(signals)))
      from latest
      where confirmed and baseline_recorded_at is not null
        and (score < baseline_score or not (baseline_signals <@ signals))
      on conflict (monitor_id, crawl_recorded_at) do nothing
      returning monitor_id
    ), moved as (
      update monitors m
      set baseline_score = l.score, baseline_signals = l.signals, baseline_recorded_at = l.recorded_at
      from latest l
      where m.id = l.monitor_id and (m.baseline_recorded_at is null or m.baseline_recorded_at < l.recorded_at)
      returning m.id
    )
    select (select count(*) from drops)::int as detected, (select count(*) from moved)::int as moved`);
  const row = result.rows[0] as { detected: number; moved: number };
  return { detected: Number(row.detected), baselinesMoved: Number(row.moved) };
}

interface ClaimedAlert {
  monitor_id: string;
  /** The key as Postgres text: a JavaScript Date would lose its microseconds. */
  crawl_key: string;
  previous_score: number;
  score: number;
  lost_signals: string[];
  attempts: number;
}

/** Claims up to `limit` due alerts for this run. */
async function claimDueAlerts(ctx: { db: Database }, limit: number): Promise<ClaimedAlert[]> {
  const result = await ctx.db.execute(sql`
    update monitor_alerts a
    set claimed_until = now() + make_interval(secs => ${ALERT_CLAIM_SECONDS}), attempts = a.attempts + 1
    from (
      select a2.monitor_id, a2.crawl_recorded_at
      from monitor_alerts a2 join monitors m on m.id = a2.monitor_id
      where a2.sent_at is null and a2.attempts < ${ALERT_MAX_ATTEMPTS}
        and (a2.claimed_until is null or a2.claimed_until < now())
        and m.unsubscribed_at is null
      order by a2.created_at
      limit ${limit}
      for update of a2 skip locked
    ) due
    where a.monitor_id = due.monitor_id and a.crawl_recorded_at = due.crawl_recorded_at
      and a.sent_at is null and (a.claimed_until is null or a.claimed_until < now())
    returning a.monitor_id, a.crawl_recorded_at::text as crawl_key, a.previous_score, a.score, a.lost_signals, a.attempts`);
  return result.rows as unknown as ClaimedAlert[];
}

/** What the alert needs besides its row, with a fresh unsubscribe token stored; null once unsubscribed. */
async function loadAlert(ctx: AlertContext, claimed: ClaimedAlert): Promise<DropAlert | null> {
  const token = newSecret("monitorUnsubscribe");
  const tokenHash = await sha256Hex(token);
  const result = await ctx.db.execute(sql`
    with token as (
      insert into monitor_tokens (token_sha256, monitor_id)
      select ${tokenHash}, id from monitors where id = ${claimed.monitor_id} and unsubscribed_at is null
      returning monitor_id
    )
    select m.email, m.domain, s.name, s.signal_evidence,
      coalesce((select json_agg(json_build_object('recorded_at', h.recorded_at, 'score', h.agentic_score)
                                order by h.recorded_at desc)
                from (select recorded_at, agentic_score from site_score_history
                      where site_id = s.id order by recorded_at desc limit ${ALERT_HISTORY_ENTRIES}) h), '[]') as history
    from token join monitors m on m.id = token.monitor_id join sites s on s.domain = m.domain`);
  const row = result.rows[0] as
    | {
        email: string;
        domain: string;
        name: string;
        signal_evidence: Partial<Record<SignalField, SignalEvidence>>;
        history: { recorded_at: string; score: number }[];
      }
    | undefined;
  if (!row) return null;
  const lost = new Set(claimed.lost_signals);
  return {
    email: row.email,
    domain: row.domain,
    siteName: row.name,
    previousScore: Number(claimed.previous_score),
    score: Number(claimed.score),
    lostSignals: SIGNAL_FIELDS.filter((field) => lost.has(field)),
    evidence: row.signal_evidence ?? {},
    history: row.history.map((entry) => ({ recordedAt: entry.recorded_at, score: Number(entry.score) })),
    unsubscribeUrl: unsubscribeLink(ctx.origin, token),
    origin: ctx.origin,
  };
}

/** The headers every alert carries: RFC 2369 List-Unsubscribe and RFC 8058 one-click. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** A failed send waits this long before the next try: 5 minutes after the first, up to 6 hours. */
export const retryDelaySeconds = (attempts: number) => Math.min(300 * 2 ** Math.max(0, attempts - 1), 21_600);

/** Step 2: sends up to `limit` due alerts, each once. */
export async function sendDueAlerts(
  ctx: AlertContext,
  compose: ComposeAlert,
  limit = ALERTS_PER_RUN,
): Promise<{ sent: number; failed: number }> {
  const { mailer } = ctx;
  // Without a mailer nothing is claimed: the alerts wait, unsent, for mail to come back.
  if (!mailer) return { sent: 0, failed: 0 };
  let sent = 0;
  let failed = 0;
  for (const claimed of await claimDueAlerts(ctx, limit)) {
    const key = sql`monitor_id = ${claimed.monitor_id} and crawl_recorded_at = ${claimed.crawl_key}::timestamptz`;
    try {
      const alert = await loadAlert(ctx, claimed);
      if (!alert) continue; // Unsubscribed since the claim: never sent, never claimed again.
      const message = compose(alert);
      const { id } = await mailer.send({
        to: alert.email,
        ...message,
        headers: unsubscribeHeaders(alert.unsubscribeUrl),
      });
      sent += 1;
      try {
        await ctx.db.execute(
          sql`update monitor_alerts set sent_at = now(), mail_id = ${id}, claimed_until = null, last_error = null where ${key}`,
        );
      } catch (markError) {
        // Sent but not recorded: the claim is kept (not released), the one window in which a later
        // run could send it again once the claim expires (docs/monitors.md).
        console.error(`monitor alert ${id} sent but not marked sent`, String(markError));
      }
    } catch (error) {
      failed += 1;
      const delay = retryDelaySeconds(claimed.attempts);
      console.error(`monitor alert not sent (attempt ${claimed.attempts} of ${ALERT_MAX_ATTEMPTS})`, String(error));
      await ctx.db
        .execute(sql`
          update monitor_alerts set claimed_until = now() + make_interval(secs => ${delay}), last_error = ${String(error).slice(0, 500)}
          where ${key} and sent_at is null`)
        .catch((releaseError) => console.error("monitor alert not released", String(releaseError)));
    }
  }
  return { sent, failed };
}

/** One cron run: detect drops, then send what is due. */
export async function runMonitorAlerts(ctx: AlertContext, compose: ComposeAlert): Promise<AlertRunSummary> {
  const detected = await detectDrops(ctx);
  const sending = await sendDueAlerts(ctx, compose);
  return { ...detected, ...sending };
}
