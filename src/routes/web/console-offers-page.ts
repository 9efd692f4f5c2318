/**
 * A claim's offers in the provider console (view: src/web/pages/console-offers.tsx):
 * GET /console/claims/{id}/offers lists them (as GET /api/v1/provider/offers?claim_id=);
 * GET …/offers/new shows the form; POST …/offers creates a draft (as POST /api/v1/provider/offers,
 * the same schema and domain operation) and shows it. Another account's claim is a 404 page; a
 * refusal is shown on the form with the API's status.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { readOwnedClaim } from "../../domain/claims/read-claim.ts";
import { createOffer, listOffers } from "../../domain/offers/manage-offers.ts";
import { canonicalTermsOf } from "../../domain/offers/owner-offer-terms.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { CONSOLE_ROUTES } from "../../web/console-paths.ts";
import { renderNewOfferPage, renderOfferPage, renderOffersPage } from "../../web/pages/console-offers.tsx";
import { offerFieldErrors, readOfferForm } from "./console-offer-form.ts";
import { claimIdOf, consoleHeaders, consoleSameOrigin, consoleSession } from "./console-session.ts";
import { attempt } from "./page-errors.ts";

/** Serves a claim's offers, the new-offer form and the drafts it creates. */
export function registerConsoleOffersPage(app: OpenAPIHono<AppEnv>) {
  app.get(CONSOLE_ROUTES.offers, consoleSession(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const ctx = c.var.deps;
    const { claim } = await readOwnedClaim({ ctx, actor, input: { claimId: claimIdOf(c) } });
    const { offers } = await listOffers({ ctx, actor, input: { claimId: claim.id } });
    const page = await renderOffersPage({ origin: c.var.deps.origin, claimId: claim.id, domain: claim.domain, offers });
    return c.html(page, 200, await consoleHeaders(c));
  });

  app.get(CONSOLE_ROUTES.newOffer, consoleSession(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const { claim } = await readOwnedClaim({ ctx: c.var.deps, actor, input: { claimId: claimIdOf(c) } });
    const page = await renderNewOfferPage({ origin: c.var.deps.origin, claimId: claim.id, domain: claim.domain });
    return c.html(page, 200, await consoleHeaders(c));
  });

  app.post(CONSOLE_ROUTES.offers, consoleSession(), consoleSameOrigin(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const ctx = c.var.deps;
    const origin = c.var.deps.origin;
    const { claim } = await readOwnedClaim({ ctx, actor, input: { claimId: claimIdOf(c) } });
    const form = await readOfferForm(c, claim.id, "create");
    const refuse = async (
      status: number,
      values: typeof form.values,
      errors: Parameters<typeof renderNewOfferPage>[0]["errors"],
    ) =>
      c.html(
        await renderNewOfferPage({ origin, claimId: claim.id, domain: claim.domain, values, errors }),
        status as 400,
        await consoleHeaders(c),
      );
    if (!form.ok) return refuse(400, form.values, form.errors);
    const input = { ...form.input, claim_id: claim.id };
    const outcome = await attempt(async () => {
      try {
        return { created: await createOffer({ ctx, actor, input }) };
      } catch (error) {
        const errors = offerFieldErrors(error);
        if (errors) return { errors };
        throw error;
      }
    });
    if (!outcome.ok) return refuse(outcome.status, form.values, { fields: {}, form: outcome.message });
    if ("errors" in outcome.value) return refuse(400, form.values, outcome.value.errors);
    const offer = outcome.value.created;
    const notice = {
      tone: "success" as const,
      title: "Draft created.",
      text: `Version ${offer.version}, not shown in search until the operator activates it.`,
    };
    const page = await renderOfferPage({ origin, offer, canonicalTerms: canonicalTermsOf(offer), notice });
    return c.html(page, 200, await consoleHeaders(c));
  });
}
