/**
 * The fetches behind a signal or a check, as a table: URL, status, type. Control requests (a
 * random path that cannot exist, asked to tell a real file from a catch-all page) are listed
 * apart, under the evidence, linking to the one place the report explains them.
 */
import type { CheckEvidence } from "../domain/checklist/checklist-definition.ts";
import { isControlUrl } from "../domain/signals/catch-all.ts";
import { StackingTable } from "./components.tsx";

/** The id of the report's one explanation of control requests. */
export const CONTROL_REQUESTS_ID = "control-requests";

/** True when any of the fetches is a control request. */
export function hasControlRequests(fetches: readonly CheckEvidence[]): boolean {
  return fetches.some((fetch) => isControlUrl(fetch.url));
}

function Rows({ fetches }: { fetches: readonly CheckEvidence[] }) {
  return (
    <tbody>
      {fetches.map((fetch) => (
        <tr>
          <td data-label="URL">
            <code class="url">{fetch.url}</code>
          </td>
          <td data-label="Status">{fetch.status === null ? "no answer" : String(fetch.status)}</td>
          <td data-label="Type">{fetch.content_type ?? "none"}</td>
        </tr>
      ))}
    </tbody>
  );
}

function Head() {
  return (
    <thead>
      <tr>
        <th scope="col">URL</th>
        <th scope="col">Status</th>
        <th scope="col">Type</th>
      </tr>
    </thead>
  );
}

/** The evidence of `subject` (its name, for the captions), control requests apart. */
export function EvidenceTable({ fetches, subject }: { fetches: readonly CheckEvidence[]; subject: string }) {
  const evidence = fetches.filter((fetch) => !isControlUrl(fetch.url));
  const controls = fetches.filter((fetch) => isControlUrl(fetch.url));
  return (
    <>
      {evidence.length ? (
        <StackingTable>
          <caption class="visually-hidden">Fetches behind {subject}</caption>
          <Head />
          <Rows fetches={evidence} />
        </StackingTable>
      ) : null}
      {controls.length ? (
        <div class="controls">
          <p class="muted">
            <a href={`#${CONTROL_REQUESTS_ID}`}>Control {controls.length === 1 ? "request" : "requests"}</a>, not
            evidence:
          </p>
          <StackingTable>
            <caption class="visually-hidden">Control requests for {subject}</caption>
            <Head />
            <Rows fetches={controls} />
          </StackingTable>
        </div>
      ) : null}
    </>
  );
}
