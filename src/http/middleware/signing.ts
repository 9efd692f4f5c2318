/**
 * Puts the signing keys on the request's dependencies for the groups that sign or verify
 * attribution bearers and outcome receipts (exchange and provider). The adapter lives here rather
 * than in src/deps.ts so that the Workers of the other groups do not bundle `jose`.
 */
import type { MiddlewareHandler } from "hono";
import { createSigning } from "../../adapters/signing.ts";
import type { AppEnv } from "../context.ts";

/** Sets `deps.signing` when the signing capability is configured (else it stays undefined: 503). */
export function withSigning(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { deps } = c.var;
    const settings = deps.config.capabilities.signing;
    if (settings && !deps.signing) {
      c.set("deps", {
        ...deps,
        signing: createSigning({
          attributionKeys: settings.ATTRIBUTION_SIGNING_KEYS,
          receiptKeys: settings.RECEIPT_SIGNING_KEYS,
          attributionTtlSeconds: settings.ATTRIBUTION_TTL_SECONDS,
          receiptValiditySeconds: settings.RECEIPT_VALIDITY_SECONDS,
        }),
      });
    }
    await next();
  };
}
