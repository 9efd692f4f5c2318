import { describe, expect, it } from "vitest";
import { insertExpiredTicket } from "../support/ticket-cases.ts";
import { handedOffTicket, postResolve, searchDisclosing } from "../support/tickets.ts";
import { expectInvalid, expectProblem } from "../support/worker.ts";

describe("POST /provider/action-tickets/resolve: every status", () => {
  it("404 without the disclosure consent or for another claim, 400 for a bad bearer, 410 once expired", async () => {
    const declined = await handedOffTicket({ disclose: false });
    await expectProblem(
      await postResolve(declined.claim.key, { attribution_token: declined.ticket.attribution_bearer }),
      404,
      "CONTROLLED_INTENT_UNAVAILABLE",
    );
    const consented = await handedOffTicket();
    await expectProblem(
      await postResolve(declined.claim.key, { attribution_token: consented.ticket.attribution_bearer }),
      404,
      "CONTROLLED_INTENT_UNAVAILABLE",
    );
    expect(
      (await postResolve(consented.claim.key, { attribution_token: consented.ticket.attribution_bearer })).status,
    ).toBe(200);
    for (const token of ["", "not-a-jws", `${consented.ticket.attribution_bearer}x`]) {
      const response = await postResolve(consented.claim.key, { attribution_token: token });
      expect(response.status).toBe(400);
    }
    await expectInvalid(
      await postResolve(consented.claim.key, {
        attribution_token: consented.ticket.attribution_bearer,
        ticket_id: "x",
      }),
      "body",
      ["ticket_id"],
    );
    const search = await searchDisclosing(consented.claim.domain);
    const expired = await insertExpiredTicket(search.search_id, consented.offer, consented.claim, "redirected");
    await expectProblem(
      await postResolve(consented.claim.key, { attribution_token: expired.bearer }),
      410,
      "ATTRIBUTION_EXPIRED",
    );
  });
});
