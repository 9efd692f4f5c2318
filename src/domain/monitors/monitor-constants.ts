/** The fixed figures of score-drop monitors (docs/monitors.md); the spec leaves each open. */

/** Active monitors one address may hold; one more answers 429 MONITOR_LIMIT_REACHED. */
export const MAX_MONITORS_PER_EMAIL = 20;

/** Registrations per client and hour (each may send a confirmation mail to someone). */
export const MONITOR_REGISTRATIONS_PER_CLIENT_PER_HOUR = 30;

/** An unconfirmed address gets another confirmation mail at most this often, however often it registers. */
export const CONFIRMATION_RESEND_AFTER_SECONDS = 3600;

/** Alerts one cron run sends at most; the rest wait for the next run. */
export const ALERTS_PER_RUN = 50;

/** A run that claimed an alert has this long to send it before another run may try. */
export const ALERT_CLAIM_SECONDS = 300;

/** Sending attempts of one alert before it is left unsent (and logged) for an operator. */
export const ALERT_MAX_ATTEMPTS = 8;

/** Score history entries an alert shows, newest first. */
export const ALERT_HISTORY_ENTRIES = 10;

/** Where the e-mailed links lead: pages of the web group, which call the same operations. */
export const MONITOR_PATHS = {
  signUp: "/monitor",
  confirm: "/monitor/confirm",
  unsubscribe: "/monitor/unsubscribe",
} as const;

/** The confirmation link mailed to a new address; its page shows a button that POSTs the token. */
export const confirmLink = (origin: string, token: string) =>
  `${origin}${MONITOR_PATHS.confirm}?token=${encodeURIComponent(token)}`;

/** A monitor's unsubscribe link: a page on GET, the unsubscription on POST (RFC 8058 one-click too). */
export const unsubscribeLink = (origin: string, token: string) =>
  `${origin}${MONITOR_PATHS.unsubscribe}?token=${encodeURIComponent(token)}`;
