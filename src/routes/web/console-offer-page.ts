/**
 * One offer in the provider console (view: src/web/pages/console-offers.tsx): GET /console/offers/{id}
 * shows its terms, the terms hash and the canonical JSON it is taken over; POST saves a draft's
 * edit as its next version (as PUT /api/v1/provider/offers/{id}); POST …/pause pauses an active
 * offer (as POST …/pause in the API). Another account's offer is a 404 page, as in the API.
 */
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getOffer, offerNotFound, pauseOffer, updateOffer } from "../../domain/offers/manage-offers.ts";
import { canonicalTermsOf } from "../../domain/offers/owner-offer-terms.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { CONSOLE_PATHS, CONSOLE_ROUTES } from "../../web/console-paths.ts";
import { renderOfferPage } from "../../web/pages/console-offers.tsx";
import { offerFieldErrors, readOfferForm } from "./console-offer-form.ts";
import { consoleHeaders, consoleSameOrigin, consoleSession } from "./console-session.ts";
import { attempt } from "./page-errors.ts";

const OfferIdSchema = z.uuid();

/** The offer id of the path; one that cannot be an id is an offer that does not exist (404 page). */
function offerIdOf(c: Context<AppEnv>): string {
  const parsed = OfferIdSchema.safeParse(c.req.param("offer_id"));
  if (!parsed.success) throw offerNotFound();
  return parsed.data;
}

/** Serves an offer's page, a draft's edits and pausing. */
export function registerConsoleOfferPage(app: OpenAPIHono<AppEnv>) {
  app.get(CONSOLE_ROUTES.offer, consoleSession(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const offer = await getOffer({ ctx: c.var.deps, actor, input: { offerId: offerIdOf(c) } });
    const page = await renderOfferPage({ origin: c.var.deps.origin, offer, canonicalTerms: canonicalTermsOf(offer) });
    return c.html(page, 200, await consoleHeaders(c));
  });

  // The pause's address opened again leads to the offer: a GET never repeats the action.
  app.get(CONSOLE_ROUTES.pauseOffer, (c) => c.redirect(CONSOLE_PATHS.offer(offerIdOf(c)), 303));

  app.post(CONSOLE_ROUTES.offer, consoleSession(), consoleSameOrigin(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const ctx = c.var.deps;
    const origin = c.var.deps.origin;
    const before = await getOffer({ ctx, actor, input: { offerId: offerIdOf(c) } });
    const form = await readOfferForm(c, before.claim_id, "update");
    const show = async (
      status: number,
      extra: Omit<Parameters<typeof renderOfferPage>[0], "origin" | "offer" | "canonicalTerms">,
      offer = before,
    ) =>
      c.html(
        await renderOfferPage({ origin, offer, canonicalTerms: canonicalTermsOf(offer), ...extra }),
        status as 200,
        await consoleHeaders(c),
      );
    if (!form.ok) return show(400, { values: form.values, errors: form.errors });
    const outcome = await attempt(async () => {
      try {
        return { updated: await updateOffer({ ctx, actor, input: { ...form.input, offerId: before.id } }) };
      } catch (error) {
        const errors = offerFieldErrors(error);
        if (errors) return { errors };
        throw error;
      }
    });
    if (!outcome.ok) {
      const notice = { tone: "error" as const, title: "The offer was not saved.", text: outcome.message };
      return show(outcome.status, { notice, values: form.values });
    }
    if ("errors" in outcome.value) return show(400, { values: form.values, errors: outcome.value.errors });
    const offer = outcome.value.updated;
    const sameTerms = offer.commercial_terms_sha256 === before.commercial_terms_sha256;
    const notice = {
      tone: "success" as const,
      title: `Version ${offer.version} saved.`,
      text: sameTerms
        ? "The terms did not change, so neither did their hash."
        : "The terms changed, and with them their hash: an earlier acceptance does not cover this version.",
    };
    return show(200, { notice }, offer);
  });

  app.post(CONSOLE_ROUTES.pauseOffer, consoleSession(), consoleSameOrigin(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const ctx = c.var.deps;
    const offerId = offerIdOf(c);
    const outcome = await attempt(() => pauseOffer({ ctx, actor, input: { offerId } }));
    const offer = outcome.ok ? outcome.value : await getOffer({ ctx, actor, input: { offerId } });
    const notice = outcome.ok
      ? { tone: "success" as const, title: "The offer is paused.", text: "It no longer appears beside search results." }
      : { tone: "error" as const, title: "The offer was not paused.", text: outcome.message };
    const page = await renderOfferPage({
      origin: c.var.deps.origin,
      offer,
      canonicalTerms: canonicalTermsOf(offer),
      notice,
    });
    return c.html(page, outcome.ok ? 200 : outcome.status, await consoleHeaders(c));
  });
}
