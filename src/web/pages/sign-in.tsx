/**
 * The sign-in page (`/sign-in`): ask for a link by e-mail; the link opens this page again with
 * its token, and only the button's POST uses the token, so a mail scanner that opens links
 * signs nobody in.
 */
import { SIGN_IN_TOKEN_LIFETIME_SECONDS } from "../../domain/accounts/account-constants.ts";
import { Notice } from "../components.tsx";
import { CONSOLE_PATHS } from "../console-paths.ts";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

export type SignInPageState =
  | { kind: "ask"; email?: string; error?: string }
  /** A console page opened without a live session (status 401). */
  | { kind: "required" }
  | { kind: "signed-out" }
  | { kind: "sent"; email: string }
  | { kind: "confirm"; token: string }
  | { kind: "signed-in"; email: string; expiresAt: Date }
  | { kind: "failed"; error: string };

export async function renderSignInPage(origin: string, state: SignInPageState): Promise<string> {
  return renderPage(
    <Layout
      origin={origin}
      url={`${origin}/sign-in`}
      title="Sign in · Agent Readiness Search"
      description="Sign in with a one-time link sent by e-mail, to claim your domain as a provider."
    >
      <h1>Sign in</h1>
      <SignInBody state={state} />
    </Layout>,
  );
}

function SignInBody({ state }: { state: SignInPageState }) {
  switch (state.kind) {
    case "sent":
      return (
        <Notice tone="success" title="Check your mail.">
          <p>
            If {state.email} can receive mail, a sign-in link is on its way. It works once, within{" "}
            {SIGN_IN_TOKEN_LIFETIME_SECONDS / 60} minutes.
          </p>
        </Notice>
      );
    case "confirm":
      return (
        <form method="post" action="/sign-in" class="stack">
          <p>Press the button to finish signing in on this browser.</p>
          <input type="hidden" name="token" value={state.token} />
          <button type="submit">Sign in</button>
        </form>
      );
    case "signed-in":
      return (
        <Notice tone="success" title={`Signed in as ${state.email}.`}>
          <p>Your session lasts until {state.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC.</p>
          <p>
            <a href={CONSOLE_PATHS.home}>Open the provider console</a> to claim your domain and manage its provider key,
            or use the API's <a href="/docs#tag-provider">provider endpoints</a>.
          </p>
        </Notice>
      );
    case "required":
      return (
        <>
          <Notice tone="info" title="Sign in to open the provider console.">
            <p>The console shows your claims and keys, so it needs a live session. Ask for a sign-in link below.</p>
          </Notice>
          <EmailForm />
        </>
      );
    case "signed-out":
      return (
        <>
          <Notice tone="success" title="Signed out.">
            <p>Your session has ended on this browser.</p>
          </Notice>
          <EmailForm />
        </>
      );
    case "failed":
      return (
        <>
          <Notice tone="error" title="That sign-in link cannot be used.">
            <p>{state.error}</p>
          </Notice>
          <EmailForm />
        </>
      );
    default:
      return <EmailForm email={state.email} error={state.error} />;
  }
}

function EmailForm({ email, error }: { email?: string; error?: string }) {
  return (
    <form method="post" action="/sign-in/email" class="stack">
      {error ? (
        <Notice tone="error" title="The link could not be sent.">
          <p>{error}</p>
        </Notice>
      ) : null}
      <label for="sign-in-email">E-mail address</label>
      <input id="sign-in-email" name="email" type="email" required autocomplete="email" value={email ?? ""} />
      <p class="hint">We send a one-time link; there is no password.</p>
      <button type="submit">E-mail me a link</button>
    </form>
  );
}
