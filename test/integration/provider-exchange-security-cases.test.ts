import { OWN_ORIGIN } from "../support/accounts.ts";
import { runSecurityCases } from "../support/security-cases.ts";
import { type OutcomeBody, securityCredentials } from "../support/ticket-cases.ts";
import { handedOffTicket, postOutcome } from "../support/tickets.ts";
import { asClient } from "../support/worker.ts";

const tokens: Record<string, string> = {};

runSecurityCases(
  {
    name: "POST /provider/action-tickets/resolve",
    scheme: "provider_key",
    mutation: false,
    okStatus: 200,
    staleStatus: 404,
    async setup() {
      const { claim, ticket } = await handedOffTicket();
      tokens.resolve = ticket.attribution_bearer;
      return securityCredentials(claim);
    },
    send: (headers) => {
      headers.set("Content-Type", "application/json");
      return asClient()("/api/v1/provider/action-tickets/resolve", {
        method: "POST",
        headers,
        body: JSON.stringify({ attribution_token: tokens.resolve }),
      });
    },
  },
  { ownOrigin: OWN_ORIGIN },
);

runSecurityCases(
  {
    name: "POST /provider/outcomes",
    scheme: "provider_key",
    mutation: true,
    okStatus: 201,
    staleStatus: 409,
    async setup() {
      const { claim, ticket } = await handedOffTicket();
      tokens.outcome = ticket.attribution_bearer;
      return securityCredentials(claim);
    },
    send: (headers) => {
      headers.set("Content-Type", "application/json");
      headers.set("Idempotency-Key", `sec-${crypto.randomUUID()}`);
      return asClient()("/api/v1/provider/outcomes", {
        method: "POST",
        headers,
        body: JSON.stringify({ attribution_token: tokens.outcome, outcome: "accepted" }),
      });
    },
  },
  { ownOrigin: OWN_ORIGIN },
);

runSecurityCases(
  {
    name: "GET /provider/receipts/{receipt_id}",
    scheme: "provider_key",
    mutation: false,
    okStatus: 200,
    staleStatus: 404,
    async setup() {
      const { claim, ticket } = await handedOffTicket();
      const response = await postOutcome(claim.key, {
        attribution_token: ticket.attribution_bearer,
        outcome: "accepted",
      });
      tokens.receipt = ((await response.json()) as OutcomeBody).receipt_id;
      return securityCredentials(claim);
    },
    send: (headers) => asClient()(`/api/v1/provider/receipts/${tokens.receipt}`, { headers }),
  },
  { ownOrigin: OWN_ORIGIN },
);
