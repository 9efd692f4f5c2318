/**
 * Outgoing e-mail through Resend's HTTP API (`POST {base}/emails`), the production mail provider;
 * the local stack's outbox speaks the same API. The service sends plain-text mail with an optional
 * HTML part, no tracking (no pixels, no rewritten links: Resend tracks only when a domain turns it
 * on, and ours does not), and its own headers (List-Unsubscribe for alerts).
 */

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text part: every message has one. */
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Sends one message; resolves with the provider's message id, throws `MailError` when it is not accepted. */
  send(message: MailMessage): Promise<{ id: string }>;
}

export interface ResendMailerOptions {
  apiKey: string;
  /** The sender, e.g. "Agent Readiness <mail@agentready.example>". */
  from: string;
  /** Resend's API base, or the local outbox's. */
  baseUrl: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

/** A send the provider did not accept; `retryable` when trying again later may succeed. */
export class MailError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "MailError";
  }
}

export function createResendMailer(options: ResendMailerOptions): Mailer {
  const fetchImpl = options.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const endpoint = `${options.baseUrl.replace(/\/$/, "")}/emails`;
  return {
    async send(message) {
      let response: Response;
      try {
        response = await fetchImpl(endpoint, {
          method: "POST",
          headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            from: options.from,
            to: [message.to],
            subject: message.subject,
            text: message.text,
            ...(message.html ? { html: message.html } : {}),
            ...(message.headers ? { headers: message.headers } : {}),
          }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        throw new MailError(`mail provider unreachable: ${String(error)}`, true);
      }
      const body = (await response.json().catch(() => ({}))) as { id?: unknown; name?: unknown; message?: unknown };
      if (!response.ok || typeof body.id !== "string") {
        // Resend answers 429 when rate limited and 5xx on its own failures: worth a retry; a 4xx is not.
        const retryable = response.status === 429 || response.status >= 500;
        throw new MailError(
          `mail provider refused (${response.status} ${String(body.name ?? "")}): ${String(body.message ?? "")}`,
          retryable,
        );
      }
      return { id: body.id };
    },
  };
}
