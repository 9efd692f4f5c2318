/**
 * The provider console (`/console`): a signed-in owner's claims, claiming a domain (the DNS TXT
 * record to publish, shown once), verifying it, the provider key shown once with a copy button,
 * rotating the key and revoking the claim behind a confirmation step, and signing out. Every form
 * is a plain POST to the service's own origin, so the console works without script; the copy
 * buttons are the one script and appear only when it runs.
 */
import type { Child } from "hono/jsx";
import type { ProviderClaimRecord } from "../../domain/claims/claim-record.ts";
import type { OwnedClaimView } from "../../domain/claims/read-claim.ts";
import { Notice, StackingTable } from "../components.tsx";
import { CONSOLE_PATHS } from "../console-paths.ts";
import { COPY_SCRIPT } from "../copy-script.ts";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

/** A timestamp as people read it: `2026-11-23 04:10 UTC`. */
export function formatTime(iso: string | null | undefined): string {
  return iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "—";
}

const STATUS_WORDS: Record<ProviderClaimRecord["status"], string> = {
  pending: "Pending",
  verified: "Verified",
  revoked: "Revoked",
};

function ClaimStatus({ status }: { status: ProviderClaimRecord["status"] }) {
  return <span class={`status status-${status}`}>{STATUS_WORDS[status]}</span>;
}

function ConsoleLayout({
  origin,
  path,
  title,
  children,
  script,
}: {
  origin: string;
  path: string;
  title: string;
  children: Child;
  script?: boolean;
}) {
  return (
    <Layout
      origin={origin}
      url={`${origin}${path}`}
      title={`${title} · Provider console`}
      description="Claim your domain, prove it by DNS and manage its provider key."
    >
      {children}
      {/* Placed after the content it works on; the page's CSP names exactly this script. */}
      {script ? <script dangerouslySetInnerHTML={{ __html: COPY_SCRIPT }} /> : null}
    </Layout>
  );
}

/** A one-button form posting to the console (every change the console makes is one of these). */
function ActionForm({
  action,
  label,
  tone = "primary",
  children,
}: {
  action: string;
  label: string;
  tone?: "primary" | "secondary" | "danger";
  children?: Child;
}) {
  return (
    <form method="post" action={action} class="inline-form">
      {children}
      <button type="submit" class={tone === "primary" ? undefined : tone}>
        {label}
      </button>
    </form>
  );
}

/**
 * A value shown once, in a read-only field that can be selected by hand, with a copy button that
 * the copy script reveals (hidden without script, since it would do nothing).
 */
function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div class="copy-field">
      <label for={id}>{label}</label>
      <div class="field-row">
        <input id={id} type="text" readonly value={value} spellcheck={false} autocomplete="off" class="mono" />
        <button type="button" class="secondary" data-copy={id} hidden>
          Copy<span class="visually-hidden"> {label.toLowerCase()}</span>
        </button>
      </div>
      <p id={`${id}-copied`} class="copy-status" role="status" />
    </div>
  );
}

function Breadcrumb({ origin }: { origin: string }) {
  return (
    <p class="breadcrumb">
      <a href={`${origin}${CONSOLE_PATHS.home}`}>Provider console</a>
    </p>
  );
}

export interface ConsoleHomeProps {
  origin: string;
  email: string;
  expiresAt: Date;
  claims: ProviderClaimRecord[];
  /** The domain typed into the claim form, kept when it is refused. */
  domain?: string;
  /** Why the claim form was refused, in plain words. */
  error?: string;
  /** A message about what just happened (a revocation). */
  notice?: { title: string; text: string };
}

/** The console's home: who is signed in, the account's claims, the claim form, signing out. */
export function ConsoleHome({ origin, email, expiresAt, claims, domain, error, notice }: ConsoleHomeProps) {
  const live = claims.find((claim) => claim.status !== "revoked");
  const field = "claim-domain";
  const described = ["claim-domain-hint", error ? "claim-domain-error" : ""].filter(Boolean).join(" ");
  return (
    <ConsoleLayout origin={origin} path={CONSOLE_PATHS.home} title="Your claims">
      <h1>Provider console</h1>
      <div class="session-bar">
        <p>
          Signed in as <strong>{email}</strong> until {formatTime(expiresAt.toISOString())}.
        </p>
        <ActionForm action={`${origin}${CONSOLE_PATHS.signOut}`} label="Sign out" tone="secondary" />
      </div>
      {notice ? (
        <Notice tone="success" title={notice.title}>
          <p>{notice.text}</p>
        </Notice>
      ) : null}

      <h2 id="claims-heading">Your claims</h2>
      {claims.length ? (
        <StackingTable>
          <caption class="visually-hidden">Your claims, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Domain</th>
              <th scope="col">Status</th>
              <th scope="col">Claimed</th>
              <th scope="col">Last proven</th>
              <th scope="col">Next check</th>
            </tr>
          </thead>
          <tbody>
            {claims.map((claim) => (
              <tr>
                <td>
                  <a href={`${origin}${CONSOLE_PATHS.claim(claim.id)}`}>{claim.domain}</a>
                </td>
                <td data-label="Status">
                  <ClaimStatus status={claim.status} />
                </td>
                <td data-label="Claimed">{formatTime(claim.created_at)}</td>
                <td data-label="Last proven">{formatTime(claim.verification_last_succeeded_at)}</td>
                <td data-label="Next check">{formatTime(claim.verification_next_check_at)}</td>
              </tr>
            ))}
          </tbody>
        </StackingTable>
      ) : (
        <p>No claims yet. Claim the domain of your service below.</p>
      )}

      <h2 id="claim-heading">Claim a domain</h2>
      <p>
        Claiming proves by DNS that you run a domain in the index. You then get a provider key for the provider
        endpoints of the API. An account holds one live claim at a time.
      </p>
      {live ? (
        <Notice tone="info" title={`You hold a live claim of ${live.domain}.`}>
          <p>Revoke it on its page before claiming another domain.</p>
        </Notice>
      ) : null}
      <form method="post" action={`${origin}${CONSOLE_PATHS.claims}`} class="url-form">
        <label for={field}>Domain</label>
        <p id="claim-domain-hint" class="field-hint">
          A domain in the index, without https://, such as example.com. Not indexed yet?{" "}
          <a href={`${origin}/submit`}>Submit it</a> first.
        </p>
        <div class="field-row">
          <input
            type="text"
            id={field}
            name="domain"
            value={domain}
            required
            maxlength={253}
            autocomplete="off"
            spellcheck={false}
            placeholder="example.com"
            aria-invalid={error ? "true" : undefined}
            aria-describedby={described}
          />
          <button type="submit">Claim</button>
        </div>
        {error ? (
          <p id="claim-domain-error" class="field-error">
            {error}
          </p>
        ) : null}
      </form>
    </ConsoleLayout>
  );
}

/** The DNS challenge just issued: the only time its value can be read. */
export interface ShownChallenge {
  record_type: "TXT";
  record_name: string;
  record_value: string;
  expires_at: string;
}

/** A provider key just issued: the only time it can be read. */
export interface ShownKey {
  provider_key: string;
  provider_key_metadata: { provider_api_key_id: number; key_prefix: string; created_at: string; header: string };
}

export interface ClaimPageProps {
  origin: string;
  view: OwnedClaimView;
  challenge?: ShownChallenge;
  issuedKey?: ShownKey;
  /** What the last action did. */
  notice?: { tone: "success" | "info" | "error"; title: string; text: string };
}

function ChallengeNotice({ claim, challenge }: { claim: ProviderClaimRecord; challenge: ShownChallenge }) {
  return (
    <section class="notice notice-success" aria-labelledby="challenge-heading">
      <h2 id="challenge-heading" class="notice-heading">
        Publish this DNS record
      </h2>
      <p>
        Add a <strong>TXT</strong> record to the DNS of {claim.domain}, then press <em>Verify now</em>. The value is
        shown <strong>only on this page</strong>: we keep only its SHA-256. Lost it? Get a new one below.
      </p>
      <CopyField id="record-name" label="Record name" value={challenge.record_name} />
      <CopyField id="record-value" label="Record value" value={challenge.record_value} />
      <p>
        Type <code>{challenge.record_type}</code>; verify before {formatTime(challenge.expires_at)}. Keep the record
        published: it is checked again every day.
      </p>
    </section>
  );
}

function KeyNotice({ keyShown }: { keyShown: ShownKey }) {
  const meta = keyShown.provider_key_metadata;
  return (
    <section class="notice notice-success" aria-labelledby="key-heading">
      <h2 id="key-heading" class="notice-heading">
        Your provider key
      </h2>
      <p>
        <strong>Save it now: it is shown only this once.</strong> We keep only its SHA-256, so nobody can show it to you
        again; if it is lost, rotate it.
      </p>
      <CopyField id="provider-key" label="Provider key" value={keyShown.provider_key} />
      <p>
        Send it in the <code>{meta.header}</code> header. Key {meta.provider_api_key_id}, beginning{" "}
        <code>{meta.key_prefix}</code>, issued {formatTime(meta.created_at)}; any earlier key of this claim no longer
        works.
      </p>
    </section>
  );
}

/** A claim's page: its state, what was just issued (once), and the actions its state allows. */
export function ClaimPage({ origin, view, challenge, issuedKey, notice }: ClaimPageProps) {
  const { claim, active_key: activeKey, ownership_freshness: freshness } = view;
  return (
    <ConsoleLayout
      origin={origin}
      path={CONSOLE_PATHS.claim(claim.id)}
      title={claim.domain}
      script={Boolean(challenge || issuedKey)}
    >
      <Breadcrumb origin={origin} />
      <h1>{claim.domain}</h1>
      {notice ? (
        <Notice tone={notice.tone} title={notice.title}>
          <p>{notice.text}</p>
        </Notice>
      ) : null}
      {issuedKey ? <KeyNotice keyShown={issuedKey} /> : null}
      {challenge ? <ChallengeNotice claim={claim} challenge={challenge} /> : null}

      <dl class="claim-facts">
        <div>
          <dt>Status</dt>
          <dd>
            <ClaimStatus status={claim.status} />
          </dd>
        </div>
        <div>
          <dt>Claimed</dt>
          <dd>{formatTime(claim.created_at)}</dd>
        </div>
        {claim.status === "pending" ? (
          <div>
            <dt>Verify before</dt>
            <dd>{formatTime(claim.challenge_expires_at)}</dd>
          </div>
        ) : null}
        {claim.verified_at ? (
          <div>
            <dt>Verified</dt>
            <dd>{formatTime(claim.verified_at)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Last proven</dt>
          <dd>{formatTime(claim.verification_last_succeeded_at)}</dd>
        </div>
        <div>
          <dt>Last checked</dt>
          <dd>{formatTime(claim.verification_last_attempted_at)}</dd>
        </div>
        {claim.status === "verified" ? (
          <>
            <div>
              <dt>Failed checks in a row</dt>
              <dd>
                {claim.verification_consecutive_failures} of {freshness.paid_actions_stop_after_consecutive_failures}
              </dd>
            </div>
            <div>
              <dt>Next check</dt>
              <dd>{formatTime(claim.verification_next_check_at)}</dd>
            </div>
          </>
        ) : null}
        {claim.revoked_at ? (
          <div>
            <dt>Revoked</dt>
            <dd>{formatTime(claim.revoked_at)}</dd>
          </div>
        ) : null}
      </dl>

      {claim.status === "revoked" ? (
        <p>
          This claim is revoked and its keys no longer work. To claim the domain again,{" "}
          <a href={`${origin}${CONSOLE_PATHS.home}#claim-heading`}>start a new claim</a>.
        </p>
      ) : (
        <>
          <h2 id="proof-heading">Ownership</h2>
          <p>
            The proof is a TXT record at <code>{claim.verification_record_name}</code> holding the challenge value.
            {claim.status === "verified"
              ? ` It is checked every ${freshness.recheck_interval_seconds / 3600} hours; ${freshness.paid_actions_stop_after_consecutive_failures} failed checks in a row revoke the claim.`
              : " Publish it, then verify."}
          </p>
          <div class="actions">
            <ActionForm
              action={`${origin}${CONSOLE_PATHS.verify(claim.id)}`}
              label={claim.status === "pending" ? "Verify now" : "Check the record now"}
            />
            <ActionForm
              action={`${origin}${CONSOLE_PATHS.challenge(claim.id)}`}
              label="Get a new challenge value"
              tone="secondary"
            />
          </div>
          {claim.status === "verified" ? (
            <p class="field-hint">
              A new challenge value replaces the published one from the next check on: publish it before then.
            </p>
          ) : null}

          {claim.status === "verified" ? (
            <>
              <h2 id="key-state-heading">Provider key</h2>
              <p>
                {activeKey ? (
                  <>
                    Active key {activeKey.provider_api_key_id}, beginning <code>{activeKey.key_prefix}</code>, issued{" "}
                    {formatTime(activeKey.created_at)}.
                  </>
                ) : (
                  "No active key: rotate to issue one."
                )}{" "}
                {view.verified_and_fresh
                  ? "It works while the claim stays verified."
                  : "It does not work now: the last successful check is too old. Check the record now."}
              </p>
              <p>
                <a class="button-link secondary" href={`${origin}${CONSOLE_PATHS.rotateKey(claim.id)}`}>
                  Rotate the key…
                </a>
              </p>
            </>
          ) : null}

          {view.verified_and_fresh ? (
            <>
              <h2 id="reports-heading">Offers and reports</h2>
              <ul>
                <li>
                  <a href={`${origin}${CONSOLE_PATHS.offers(claim.id)}`}>Offers of {claim.domain}</a>: create, edit
                  drafts, pause.
                </li>
                <li>
                  <a href={`${origin}${CONSOLE_PATHS.pilotStatus(claim.id)}`}>Pilot status of {claim.domain}</a>: the
                  claim, its offers and their commercial evidence, observed handoffs.
                </li>
                <li>
                  <a href={`${origin}${CONSOLE_PATHS.demand(claim.id)}`}>Demand for {claim.domain}</a>: how often
                  agents' searches returned and chose it.
                </li>
              </ul>
            </>
          ) : null}

          <h2 id="revoke-heading">Give up the claim</h2>
          <p>Revoking ends the claim and every key it holds, at once.</p>
          <p>
            <a class="button-link danger" href={`${origin}${CONSOLE_PATHS.revoke(claim.id)}`}>
              Revoke the claim…
            </a>
          </p>
        </>
      )}
    </ConsoleLayout>
  );
}

export interface ConfirmPageProps {
  origin: string;
  view: OwnedClaimView;
  action: "rotate-key" | "revoke";
}

/** The confirmation step before an action that cannot be undone; the GET shows it, the button POSTs. */
export function ConfirmPage({ origin, view, action }: ConfirmPageProps) {
  const { claim, active_key: activeKey } = view;
  const rotate = action === "rotate-key";
  const title = rotate ? `Rotate the provider key of ${claim.domain}?` : `Revoke the claim of ${claim.domain}?`;
  const path = rotate ? CONSOLE_PATHS.rotateKey(claim.id) : CONSOLE_PATHS.revoke(claim.id);
  return (
    <ConsoleLayout origin={origin} path={path} title={rotate ? "Rotate the key" : "Revoke the claim"}>
      <Breadcrumb origin={origin} />
      <h1>{title}</h1>
      {rotate ? (
        <p>
          A new key is issued and shown once.{" "}
          {activeKey ? (
            <>
              The current key, beginning <code>{activeKey.key_prefix}</code>, stops working at once:
            </>
          ) : (
            "Any earlier key stops working at once:"
          )}{" "}
          update every server that sends it.
        </p>
      ) : (
        <p>
          The claim and every key it holds stop working at once; this cannot be undone. Claiming the domain again means
          a new claim with a new DNS challenge.
        </p>
      )}
      <div class="actions">
        <ActionForm
          action={`${origin}${path}`}
          label={rotate ? "Rotate the key" : "Revoke the claim"}
          tone={rotate ? "primary" : "danger"}
        />
        <a href={`${origin}${CONSOLE_PATHS.claim(claim.id)}`}>Cancel</a>
      </div>
    </ConsoleLayout>
  );
}

export function renderConsoleHome(props: ConsoleHomeProps): Promise<string> {
  return renderPage(<ConsoleHome {...props} />);
}

export function renderClaimPage(props: ClaimPageProps): Promise<string> {
  return renderPage(<ClaimPage {...props} />);
}

export function renderConfirmPage(props: ConfirmPageProps): Promise<string> {
  return renderPage(<ConfirmPage {...props} />);
}
