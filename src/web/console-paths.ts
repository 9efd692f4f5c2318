/**
 * Where the provider console's pages live. Each action has one path: GET shows it (a confirmation
 * step where the action cannot be undone), POST does it.
 */
export const CONSOLE_PATHS = {
  home: "/console",
  claims: "/console/claims",
  signOut: "/console/sign-out",
  claim: (claimId: string) => `/console/claims/${claimId}`,
  verify: (claimId: string) => `/console/claims/${claimId}/verify`,
  challenge: (claimId: string) => `/console/claims/${claimId}/challenge`,
  rotateKey: (claimId: string) => `/console/claims/${claimId}/keys/rotate`,
  revoke: (claimId: string) => `/console/claims/${claimId}/revoke`,
  demand: (claimId: string) => `/console/claims/${claimId}/demand`,
  offers: (claimId: string) => `/console/claims/${claimId}/offers`,
  newOffer: (claimId: string) => `/console/claims/${claimId}/offers/new`,
  offer: (offerId: string) => `/console/offers/${offerId}`,
  pauseOffer: (offerId: string) => `/console/offers/${offerId}/pause`,
  pilotStatus: (claimId: string) => `/console/claims/${claimId}/pilot-status`,
} as const;

/** The same paths as Hono route patterns. */
export const CONSOLE_ROUTES = {
  home: CONSOLE_PATHS.home,
  claims: CONSOLE_PATHS.claims,
  signOut: CONSOLE_PATHS.signOut,
  claim: CONSOLE_PATHS.claim(":claim_id"),
  verify: CONSOLE_PATHS.verify(":claim_id"),
  challenge: CONSOLE_PATHS.challenge(":claim_id"),
  rotateKey: CONSOLE_PATHS.rotateKey(":claim_id"),
  revoke: CONSOLE_PATHS.revoke(":claim_id"),
  demand: CONSOLE_PATHS.demand(":claim_id"),
  offers: CONSOLE_PATHS.offers(":claim_id"),
  newOffer: CONSOLE_PATHS.newOffer(":claim_id"),
  offer: CONSOLE_PATHS.offer(":offer_id"),
  pauseOffer: CONSOLE_PATHS.pauseOffer(":offer_id"),
  pilotStatus: CONSOLE_PATHS.pilotStatus(":claim_id"),
} as const;
