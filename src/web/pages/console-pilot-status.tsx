/**
 * Pilot status in the provider console (`/console/claims/{id}/pilot-status`): the same record
 * GET /api/v1/provider/pilot-status gives a provider key, for the owner's own verified claim, as
 * tables: the claim, the company acceptance, each offer with its commercial evidence, and the
 * handoffs observed for them.
 */
import type { OwnerPilotStatus } from "../../domain/claims/owner-pilot-status.ts";
import { StackingTable } from "../components.tsx";
import { CONSOLE_PATHS } from "../console-paths.ts";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";
import { formatTime } from "./console.tsx";

const yesNo = (value: boolean) => (value ? "yes" : "no");

export interface PilotStatusPageProps {
  origin: string;
  claimId: string;
  status: OwnerPilotStatus;
}

export function PilotStatusPage({ origin, claimId, status }: PilotStatusPageProps) {
  const pilot = status.pilot_status;
  return (
    <Layout
      origin={origin}
      url={`${origin}${CONSOLE_PATHS.pilotStatus(claimId)}`}
      title={`Pilot status of ${pilot.domain} · Provider console`}
      description="Your claim, its offers and their commercial evidence, and the handoffs observed for them."
    >
      <p class="breadcrumb">
        <a href={`${origin}${CONSOLE_PATHS.home}`}>Provider console</a> ›{" "}
        <a href={`${origin}${CONSOLE_PATHS.claim(claimId)}`}>{pilot.domain}</a>
      </p>
      <h1>Pilot status of {pilot.domain}</h1>
      <p>
        As of {formatTime(pilot.as_of)}: the same record the API's pilot status gives your provider key, read at one
        instant.
      </p>
      <dl class="claim-facts">
        <div>
          <dt>Claim</dt>
          <dd>{pilot.claim_status}</dd>
        </div>
        <div>
          <dt>Last proven</dt>
          <dd>{formatTime(pilot.verification_last_succeeded_at)}</dd>
        </div>
        <div>
          <dt>Failed checks in a row</dt>
          <dd>{pilot.verification_consecutive_failures}</dd>
        </div>
        <div>
          <dt>Company acceptance verified</dt>
          <dd>
            {yesNo(pilot.company_owner_verified)}
            {"company_accepted_at" in pilot && pilot.company_accepted_at
              ? ` (accepted ${formatTime(pilot.company_accepted_at)})`
              : ""}
          </dd>
        </div>
      </dl>

      <h2 id="offers-heading">Offers</h2>
      {pilot.offers.length ? (
        <StackingTable>
          <caption class="visually-hidden">Offers with their commercial evidence</caption>
          <thead>
            <tr>
              <th scope="col">Offer</th>
              <th scope="col">Status</th>
              <th scope="col">Version</th>
              <th scope="col">Bounty (¢)</th>
              <th scope="col">Terms accepted</th>
              <th scope="col">Current terms verified</th>
              <th scope="col">Ready to activate</th>
              <th scope="col">Terms hash</th>
            </tr>
          </thead>
          <tbody>
            {pilot.offers.map((offer) => (
              <tr>
                <td>
                  <a href={`${origin}${CONSOLE_PATHS.offer(offer.offer_id)}`}>{offer.name}</a>
                </td>
                <td data-label="Status">{offer.status}</td>
                <td data-label="Version">{offer.version}</td>
                <td data-label="Bounty (¢)">{offer.bounty_cents}</td>
                <td data-label="Terms accepted">{yesNo(offer.provider_acknowledges_merchant_of_record)}</td>
                <td data-label="Current terms verified">
                  {yesNo(offer.current_terms_owner_verified)}
                  {offer.current_terms_valid_until ? ` (until ${formatTime(offer.current_terms_valid_until)})` : ""}
                </td>
                <td data-label="Ready to activate">{yesNo(offer.activation_ready)}</td>
                <td data-label="Terms hash">
                  <code>{offer.commercial_terms_sha256.slice(0, 12)}…</code>
                </td>
              </tr>
            ))}
          </tbody>
        </StackingTable>
      ) : (
        <p>
          No offers yet: <a href={`${origin}${CONSOLE_PATHS.newOffer(claimId)}`}>create one</a>.
        </p>
      )}

      <h2 id="handoffs-heading">Recent observed handoffs</h2>
      {pilot.recent_observed_handoffs.length ? (
        <StackingTable>
          <caption class="visually-hidden">Handoffs observed for your offers, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Observed</th>
              <th scope="col">Offer version</th>
              <th scope="col">Ticket</th>
              <th scope="col">Outcome</th>
              <th scope="col">Charge</th>
            </tr>
          </thead>
          <tbody>
            {pilot.recent_observed_handoffs.map((handoff) => (
              <tr>
                <td>{formatTime(handoff.handoff_observed_at)}</td>
                <td data-label="Offer version">{handoff.offer_version}</td>
                <td data-label="Ticket">{handoff.ticket_status}</td>
                <td data-label="Outcome">{handoff.outcome ?? "—"}</td>
                <td data-label="Charge">
                  {handoff.charge_status ?? "—"}
                  {handoff.billed_cents !== undefined ? ` (${handoff.billed_cents} ¢)` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </StackingTable>
      ) : (
        <p>No handoffs observed yet.</p>
      )}
      <p class="muted">
        Scope: <code>{status.evidence_scope}</code>
      </p>
    </Layout>
  );
}

export function renderPilotStatusPage(props: PilotStatusPageProps): Promise<string> {
  return renderPage(<PilotStatusPage {...props} />);
}
