/**
 * The security cases every authenticated route must pass, run by one call so no route can forget
 * one: no credential, a malformed one, an unknown one, a revoked one, another owner's, a stale one,
 * and, for cookie-authenticated mutations, a cross-site request and one without Origin or
 * Sec-Fetch-Site. A baseline case with the valid credential proves the route works at all, so the
 * refusals cannot pass by the route failing for everyone. Runs in Node and inside workerd alike.
 */
import { describe, expect, it } from "vitest";

export type AuthScheme = "session" | "provider_key";

export interface SecurityCredentials {
  /** May use the route: the baseline expects `okStatus`. */
  valid: string;
  /** Was valid, then revoked (a rotated or revoked key, an ended session). */
  revoked: string;
  /** Valid for another account or claim, which does not own the resource. */
  otherOwner: string;
  /** Valid but stale: a key whose claim is no longer fresh, or an expired session. */
  stale: string;
}

export interface AuthenticatedRoute {
  /** How the cases are titled, e.g. "GET /provider/claims/{id}". */
  name: string;
  scheme: AuthScheme;
  /** Whether the route changes something (cookie mutations must be same-origin). */
  mutation: boolean;
  /** Makes the credentials (each test data of its own); called once before the cases. */
  setup(): Promise<SecurityCredentials>;
  /** Sends the request with these headers added (the credential and browser headers). */
  send(headers: Headers): Promise<Response>;
  /** Status of the baseline request with the valid credential. */
  okStatus: number;
  /** Status for the stale credential: 401 for an expired session, 404 or 409 for a stale claim's key. */
  staleStatus: number;
  /**
   * Checks the answer to another owner's credential; by default a 404 (other owners' things do not
   * exist for the caller, never 403). Collection routes answer 200 without the resource instead.
   */
  expectOtherOwner?: (response: Response) => Promise<void>;
}

/** The service origin the cases claim to come from for same-origin requests. */
export interface SecurityCaseOptions {
  ownOrigin: string;
}

const SESSION_COOKIE = "svc_session";
const PROVIDER_KEY_HEADER = "X-SVC-Provider-Key";

function credentialHeaders(route: AuthenticatedRoute, credential: string | undefined, browser: Record<string, string>) {
  const headers = new Headers(browser);
  if (credential !== undefined) {
    if (route.scheme === "session") headers.set("Cookie", `${SESSION_COOKIE}=${credential}`);
    else headers.set(PROVIDER_KEY_HEADER, credential);
  }
  return headers;
}

const URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function randomUrlSafe(length: number): string {
  return [...crypto.getRandomValues(new Uint8Array(length))].map((byte) => URL_SAFE[byte % 64]).join("");
}

async function expectProblemStatus(response: Response, status: number) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
}

/** Registers the shared security cases of one authenticated route. */
export function runSecurityCases(route: AuthenticatedRoute, options: SecurityCaseOptions) {
  // A browser on the service's own pages sends these; a cookie mutation needs them.
  const sameOriginBrowser: Record<string, string> =
    route.scheme === "session" ? { "Sec-Fetch-Site": "same-origin", Origin: options.ownOrigin } : {};
  let credentials: SecurityCredentials;
  const send = (credential: string | undefined, browser: Record<string, string> = sameOriginBrowser) =>
    route.send(credentialHeaders(route, credential, browser));

  describe(`${route.name}: shared security cases`, () => {
    it("setup: the credentials exist", async () => {
      credentials = await route.setup();
      expect(new Set(Object.values(credentials)).size).toBe(4);
    });

    it("answers the valid credential (baseline)", async () => {
      const response = await send(credentials.valid);
      expect(response.status, await response.clone().text()).toBe(route.okStatus);
    });

    it("refuses a request without a credential: 401", async () => {
      await expectProblemStatus(await send(undefined), 401);
    });

    it("refuses a malformed credential: 401", async () => {
      for (const malformed of ["", "not a credential!", "x".repeat(5000), `${credentials.valid}=`]) {
        await expectProblemStatus(await send(malformed), 401);
      }
    });

    it("refuses a well-formed credential that was never issued: 401", async () => {
      // The valid credential with its last 8 characters replaced: same prefix and shape, never issued.
      const unknown = `${credentials.valid.slice(0, -8)}${randomUrlSafe(8)}`;
      await expectProblemStatus(await send(unknown), 401);
    });

    it("refuses a revoked credential: 401", async () => {
      await expectProblemStatus(await send(credentials.revoked), 401);
    });

    it("keeps another owner's things invisible", async () => {
      const response = await send(credentials.otherOwner);
      if (route.expectOtherOwner) await route.expectOtherOwner(response);
      else await expectProblemStatus(response, 404);
    });

    it(`answers a stale credential with ${route.staleStatus}`, async () => {
      await expectProblemStatus(await send(credentials.stale), route.staleStatus);
    });

    if (route.scheme === "session" && route.mutation) {
      it("refuses a cross-site cookie request: 403", async () => {
        await expectProblemStatus(
          await send(credentials.valid, { "Sec-Fetch-Site": "cross-site", Origin: "https://attacker.example" }),
          403,
        );
        await expectProblemStatus(await send(credentials.valid, { Origin: "https://attacker.example" }), 403);
      });

      it("refuses a cookie mutation without Origin or Sec-Fetch-Site: 403", async () => {
        await expectProblemStatus(await send(credentials.valid, {}), 403);
      });
    }
  });
}
