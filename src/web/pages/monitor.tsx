/**
 * The monitor pages: sign up for a domain's score-drop alerts (/monitor), confirm the address
 * from the e-mailed link (/monitor/confirm) and unsubscribe (/monitor/unsubscribe). Links from
 * mail open a page with a button; only the button's POST acts, so a mail scanner that opens
 * links confirms and unsubscribes nothing (the one-click POST of RFC 8058 does unsubscribe).
 */

import { siteReportUrl } from "../../domain/descriptor/site-documents.ts";
import { MAX_MONITORS_PER_EMAIL, MONITOR_PATHS } from "../../domain/monitors/monitor-constants.ts";
import { Notice } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { MonitorSignUpForm } from "../monitor-form.tsx";
import { renderPage } from "../render-page.ts";

export type MonitorPageState =
  | { kind: "ask"; domain?: string; email?: string; error?: string }
  | { kind: "registered"; domain: string; email: string; confirmed: boolean; unsubscribeUrl: string };

export async function renderMonitorPage(origin: string, state: MonitorPageState): Promise<string> {
  return renderPage(
    <Layout
      origin={origin}
      url={`${origin}${MONITOR_PATHS.signUp}`}
      title="Score-drop alerts · Agent Readiness Search"
      description="Get an e-mail when a site's agent-readiness score drops, with what was lost and how to fix it."
    >
      <h1>Score-drop alerts</h1>
      {state.kind === "registered" ? (
        <Registered origin={origin} state={state} />
      ) : (
        <>
          <p class="lead">
            Get an e-mail when a site's agent-readiness score drops or it loses a signal, naming what was lost, the
            evidence and how to fix it.
          </p>
          <MonitorSignUpForm origin={origin} domain={state.domain} email={state.email} error={state.error} />
          <p class="muted">
            No account needed. An address may watch up to {MAX_MONITORS_PER_EMAIL} domains; every alert has a one-click
            unsubscribe link. A domain not yet in the index is crawled first and watched from its first score.
          </p>
        </>
      )}
    </Layout>,
  );
}

function Registered({ origin, state }: { origin: string; state: Extract<MonitorPageState, { kind: "registered" }> }) {
  return (
    <>
      {state.confirmed ? (
        <Notice tone="success" title={`You are watching ${state.domain}.`}>
          <p>
            {state.email} is confirmed: an e-mail goes out when the score of {state.domain} drops.
          </p>
        </Notice>
      ) : (
        <Notice tone="success" title="Check your mail to confirm.">
          <p>
            If {state.email} can receive mail, a confirmation link is on its way (at most one per hour). Nothing is sent
            to the address until it is confirmed; then an e-mail goes out when the score of {state.domain} drops.
          </p>
        </Notice>
      )}
      <p>
        <a href={siteReportUrl(origin, state.domain)}>The report of {state.domain}</a>. To stop these alerts later, use
        the link in any alert, or this one: <a href={state.unsubscribeUrl}>unsubscribe from {state.domain}</a>.
      </p>
      <p>
        <a href={`${origin}${MONITOR_PATHS.signUp}`}>Watch another domain</a>
      </p>
    </>
  );
}

export type ConfirmPageState =
  | { kind: "ask"; token: string; email: string; domains: string[] }
  | { kind: "confirmed"; email: string; domains: string[] }
  | { kind: "failed"; error: string };

export async function renderConfirmPage(origin: string, state: ConfirmPageState): Promise<string> {
  return renderPage(
    <Layout
      origin={origin}
      url={`${origin}${MONITOR_PATHS.confirm}`}
      title="Confirm score-drop alerts · Agent Readiness Search"
      description="Confirm your address for score-drop alerts."
    >
      <h1>Confirm score-drop alerts</h1>
      <ConfirmBody origin={origin} state={state} />
    </Layout>,
  );
}

function ConfirmBody({ origin, state }: { origin: string; state: ConfirmPageState }) {
  switch (state.kind) {
    case "ask":
      return (
        <form method="post" action={`${origin}${MONITOR_PATHS.confirm}`} class="stack">
          <dl>
            <dt>Address</dt>
            <dd>{state.email}</dd>
            <dt>{state.domains.length === 1 ? "Domain" : "Domains"}</dt>
            <dd>{state.domains.length > 0 ? state.domains.join(", ") : "none right now"}</dd>
          </dl>
          <p>
            Press the button to confirm that {state.email} wants an e-mail when the score of{" "}
            {state.domains.length > 0 ? state.domains.join(", ") : "a domain it watches"} drops.
          </p>
          <input type="hidden" name="token" value={state.token} />
          <button type="submit">Confirm</button>
        </form>
      );
    case "confirmed":
      return (
        <Notice tone="success" title={`${state.email} is confirmed.`}>
          <p>
            {state.domains.length > 0
              ? `Alerts go out when the score of ${state.domains.join(", ")} drops.`
              : "The address watches no domain right now."}{" "}
            Each alert has a link to stop it.
          </p>
        </Notice>
      );
    default:
      return (
        <Notice tone="error" title="This confirmation link cannot be used.">
          <p>{state.error}</p>
          <p>
            <a href={`${origin}${MONITOR_PATHS.signUp}`}>Register again</a> to get a new link.
          </p>
        </Notice>
      );
  }
}

export type UnsubscribePageState =
  | { kind: "ask"; token: string; domain: string }
  | { kind: "done"; domain: string }
  | { kind: "failed"; error: string };

export async function renderUnsubscribePage(origin: string, state: UnsubscribePageState): Promise<string> {
  return renderPage(
    <Layout
      origin={origin}
      url={`${origin}${MONITOR_PATHS.unsubscribe}`}
      title="Unsubscribe · Agent Readiness Search"
      description="Stop score-drop alerts for a domain."
    >
      <h1>Unsubscribe</h1>
      <UnsubscribeBody origin={origin} state={state} />
    </Layout>,
  );
}

function UnsubscribeBody({ origin, state }: { origin: string; state: UnsubscribePageState }) {
  switch (state.kind) {
    case "ask":
      return (
        <form method="post" action={`${origin}${MONITOR_PATHS.unsubscribe}`} class="stack">
          <p>Stop the score-drop alerts for {state.domain}?</p>
          <input type="hidden" name="token" value={state.token} />
          <button type="submit">Unsubscribe from {state.domain}</button>
        </form>
      );
    case "done":
      return (
        <Notice tone="success" title={`Unsubscribed from ${state.domain}.`}>
          <p>No more alerts are sent for {state.domain}. Alerts for other domains you watch continue.</p>
        </Notice>
      );
    default:
      return (
        <Notice tone="error" title="This unsubscribe link cannot be used.">
          <p>{state.error}</p>
        </Notice>
      );
  }
}
