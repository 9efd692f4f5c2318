/**
 * The priority key's activation as a page (`GET /api/v1/api-keys/activate` asked by a browser):
 * the key shown once with how to present it, or why it could not be activated. Everything shown
 * is rendered as text by Hono's JSX, which escapes it.
 */
import { PRIORITY_LIMITS } from "../../domain/commerce/catalog.ts";
import { Notice } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

export interface ActivationView {
  api_key_returned: boolean;
  api_key?: string;
  key: { key_prefix: string; plan: string; status: string; created_at: string };
}

export type PriorityKeyPageState =
  | { kind: "activated"; activation: ActivationView }
  | { kind: "failed"; message: string };

const limitsText = `search ${PRIORITY_LIMITS.searchPerHour.toLocaleString("en")} per hour, live MCP verification and /check ${PRIORITY_LIMITS.verifyPerHour} per hour each, while the month's ${PRIORITY_LIMITS.monthlyCalls.toLocaleString("en")} calls last (then the free tier, until the next month, UTC)`;

export async function renderPriorityKeyPage(origin: string, state: PriorityKeyPageState): Promise<string> {
  return renderPage(
    <Layout
      origin={origin}
      url={`${origin}/api/v1/api-keys/subscribe`}
      title="Priority API key · Agent Readiness Search"
      description="Activation of a priority-throughput API key."
    >
      <h1>Priority API key</h1>
      <PriorityKeyBody state={state} />
    </Layout>,
  );
}

function PriorityKeyBody({ state }: { state: PriorityKeyPageState }) {
  if (state.kind === "failed") {
    return (
      <Notice tone="error" title="The key could not be activated.">
        <p>{state.message}</p>
      </Notice>
    );
  }
  const { activation } = state;
  if (!activation.api_key_returned || !activation.api_key) {
    return (
      <Notice tone="info" title="This purchase's key was already shown.">
        <p>
          The key starting {activation.key.key_prefix}… (plan {activation.key.plan}, {activation.key.status}) was issued
          on {activation.key.created_at.replace("T", " ").slice(0, 16)} UTC and shown once then; it is not stored in the
          clear, so it cannot be shown again.
        </p>
      </Notice>
    );
  }
  return (
    <>
      <Notice tone="success" title="Your priority key is active. Copy it now: it is shown only this once.">
        <p>
          <code>{activation.api_key}</code>
        </p>
      </Notice>
      <p>Send it on every call to search, /verify-mcp and /check:</p>
      <pre>
        <code>{`Authorization: Bearer ${activation.api_key}`}</code>
      </pre>
      <p>It raises ceilings only ({limitsText}); results and ranking are the same with or without it.</p>
    </>
  );
}
