import { describe, expect, it } from "vitest";
import type { OutcomeBody } from "../support/ticket-cases.ts";
import { handedOffTicket, postOutcome, postVerify, testSigning } from "../support/tickets.ts";
import { expectInvalid, expectProblem } from "../support/worker.ts";

describe("POST /action-receipts/verify", () => {
  it("tells a tampered receipt, a wrong signature and an unreadable window apart; 400 for what is not a receipt", async () => {
    const { claim, ticket } = await handedOffTicket();
    const response = await postOutcome(claim.key, {
      attribution_token: ticket.attribution_bearer,
      outcome: "rejected",
    });
    const outcome = (await response.json()) as OutcomeBody;
    const tampered = outcome.signed_receipt.replace('"rejected"', '"converted"');
    expect(await (await postVerify({ signed_receipt: tampered, signature: outcome.signature })).json()).toMatchObject({
      signature_valid: false,
      current_state_available: false,
      current_state_status: "not_found",
      current_state: null,
    });
    const wrong = await postVerify({ signed_receipt: outcome.signed_receipt, signature: "A".repeat(43) });
    expect(await wrong.json()).toMatchObject({ signature_valid: false, time_status: "current" });
    // A receipt signed with the ring's older key verifies, with an unreadable window.
    const { signing } = testSigning();
    const receiptKeys = testSigning().receiptKeys;
    const old = receiptKeys.keys[1]!;
    const text = JSON.stringify({
      key_id: old.kid,
      receipt_type: "svc-provider-outcome-receipt-v1",
      valid_from: "x",
      valid_until: "y",
    });
    const macKey = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(old.secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", macKey, new TextEncoder().encode(text)));
    const signature = btoa(String.fromCharCode(...mac))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    expect(await signing.verifyReceipt(text, signature, old.kid)).toBe(true);
    expect(await (await postVerify({ signed_receipt: text, signature })).json()).toMatchObject({
      signature_valid: true,
      within_validity_window: false,
      time_status: "invalid_time",
      current_state_status: "not_found",
    });
    await expectProblem(
      await postVerify({ signed_receipt: "[1]", signature: outcome.signature }),
      400,
      "INVALID_SIGNED_RECEIPT",
    );
    await expectInvalid(await postVerify({ signed_receipt: outcome.signed_receipt }), "body", ["signature"]);
    await expectInvalid(await postVerify({ ...outcome, extra: 1 }), "body", [
      "receipt_id",
      "key_id",
      "signature_algorithm",
      "receipt",
      "idempotent_replay",
      "extra",
    ]);
  });
});
