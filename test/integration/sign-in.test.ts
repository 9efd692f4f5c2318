import { describe, expect, it } from "vitest";
import {
  insertAccount,
  jsonPost,
  newEmail,
  OWN_ORIGIN,
  outboxMessages,
  SESSION_COOKIE,
  sessionClient,
  sha256Hex,
  signInLinkFor,
} from "../support/accounts.ts";
import { DAY, ISO, readSession, seconds, sessionCookie, setCookies, signIn } from "../support/claims.ts";
import { sqlRows } from "../support/sites.ts";
import { asClient, awayFromWindowEdge, expectInvalid, expectProblem } from "../support/worker.ts";

describe("e-mail sign-in and the session (API)", () => {
  it("mails a one-time link; its token makes a session cookie once; the session reads and ends", async () => {
    const client = asClient();
    const email = newEmail("signer");
    const started = await signIn(client, email);
    expect(started.status).toBe(202);
    expect(await started.json()).toEqual({ sent: true });

    const { link, token, message } = await signInLinkFor(email);
    expect(message.to).toEqual([email]);
    expect(message.from).toBe("Agent Readiness Search <mail@svc.test>");
    expect(message.text).toEqual(expect.any(String));
    expect(message.text).toContain(link);
    expect(link).toBe(`${OWN_ORIGIN}/sign-in?token=${token}`);
    expect(token).toMatch(/^svcsi_[A-Za-z0-9_-]{43}$/);
    // Only the token's SHA-256 is stored.
    const stored = await sqlRows<{ token_sha256: string }>("select token_sha256 from sign_in_tokens where email = $1", [
      email,
    ]);
    expect(stored).toEqual([{ token_sha256: await sha256Hex(token) }]);

    const created = await client("/api/v1/auth/session", jsonPost({ token }));
    expect(created.status).toBe(201);
    const session = (await created.json()) as { email: string; expires_at: string };
    expect(Object.keys(session).sort()).toEqual(["email", "expires_at"]);
    expect(session.email).toBe(email);
    expect(session.expires_at).toMatch(ISO);
    expect(seconds(session.expires_at) - Date.now() / 1000).toBeGreaterThan(13 * DAY);
    const cookie = sessionCookie(created);
    expect(cookie.value).toMatch(/^svcss_[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes.has("httponly")).toBe(true);
    expect(cookie.attributes.has("secure")).toBe(true);
    expect(cookie.attributes.get("samesite")).toBe("Lax");
    expect(cookie.attributes.get("path")).toBe("/");
    expect(
      await sqlRows("select 1 from sessions where token_sha256 = $1", [await sha256Hex(cookie.value)]),
    ).toHaveLength(1);

    // The link works once.
    await expectProblem(await client("/api/v1/auth/session", jsonPost({ token })), 401, "SIGN_IN_TOKEN_INVALID");

    const read = await readSession(cookie.value);
    expect(read.status).toBe(200);
    expect(read.headers.get("cache-control")).toBe("private, no-store");
    expect(await read.json()).toEqual(session);

    // Signing out is a cookie mutation: only from the service's own pages.
    const cookieOnly = { Cookie: `${SESSION_COOKIE}=${cookie.value}` };
    for (const headers of [cookieOnly, { ...cookieOnly, "Sec-Fetch-Site": "cross-site" }]) {
      await expectProblem(
        await client("/api/v1/auth/session", { method: "DELETE", headers }),
        403,
        "SAME_ORIGIN_REQUIRED",
      );
    }
    expect((await readSession(cookie.value)).status).toBe(200);

    const ended = await sessionClient(cookie.value)("/api/v1/auth/session", { method: "DELETE" });
    expect(ended.status).toBe(204);
    const cleared = sessionCookie(ended);
    expect(cleared.value).toBe("");
    expect(cleared.attributes.get("max-age")).toBe("0");
    await expectProblem(await readSession(cookie.value), 401, "SESSION_REQUIRED");
  });

  it("signs the same mailbox into the same account however the address is typed", async () => {
    const client = asClient();
    const email = newEmail("typed");
    const sessions: { email: string }[] = [];
    for (const typed of [email, email.toUpperCase()]) {
      expect((await signIn(client, typed)).status).toBe(202);
      const { token } = await signInLinkFor(email);
      const created = await client("/api/v1/auth/session", jsonPost({ token }));
      expect(created.status).toBe(201);
      sessions.push((await created.json()) as { email: string });
    }
    expect(sessions.map((session) => session.email)).toEqual([email, email]);
    expect(await sqlRows("select id from accounts where email = $1", [email])).toHaveLength(1);
  });

  it("refuses a malformed address (400) and an unknown or expired token (401), mailing and creating nothing", async () => {
    const client = asClient();
    for (const email of ["", "no-at-sign", "two@@example.com", "x@"]) {
      await expectInvalid(await signIn(client, email), "body", ["email"]);
    }
    await expectInvalid(await client("/api/v1/auth/email", jsonPost({ email: newEmail(), extra: 1 })), "body", [
      "extra",
    ]);
    await expectProblem(
      await client("/api/v1/auth/session", jsonPost({ token: `svcsi_${"A".repeat(43)}` })),
      401,
      "SIGN_IN_TOKEN_INVALID",
    );

    const email = newEmail("late");
    expect((await signIn(client, email)).status).toBe(202);
    const { token } = await signInLinkFor(email);
    await sqlRows(
      "update sign_in_tokens set created_at = now() - interval '16 minutes', expires_at = now() - interval '1 minute' where email = $1",
      [email],
    );
    await expectProblem(await client("/api/v1/auth/session", jsonPost({ token })), 401, "SIGN_IN_TOKEN_INVALID");
    expect(await sqlRows("select 1 from accounts where email = $1", [email])).toHaveLength(0);
  });

  it("answers a known and an unknown address alike (no enumeration)", async () => {
    const known = await insertAccount(newEmail("known"));
    const unknown = newEmail("unknown");
    const answers = [];
    for (const email of [known.email, unknown]) {
      const response = await signIn(asClient(), email);
      answers.push({
        status: response.status,
        body: await response.text(),
        type: response.headers.get("content-type"),
      });
    }
    expect(answers[0]).toEqual({ status: 202, body: '{"sent":true}', type: "application/json" });
    expect(answers[1]).toEqual(answers[0]);
    // Both mailboxes get a link: the known account's and, for the unknown one, the one that makes it.
    expect(await outboxMessages(known.email)).toHaveLength(1);
    expect(await outboxMessages(unknown)).toHaveLength(1);
  });
});

describe("e-mail sign-in limits", () => {
  it("sends one address at most 5 links an hour, whoever asks: the 6th answers 429 and mails nothing", async () => {
    await awayFromWindowEdge(3600, 20);
    const email = newEmail("flooded");
    for (let i = 0; i < 5; i++) expect((await signIn(asClient(), email)).status).toBe(202);
    await expectProblem(await signIn(asClient(), email.toUpperCase()), 429, "RATE_LIMITED");
    expect(await outboxMessages(email)).toHaveLength(5);
  }, 60_000);

  it("takes at most 20 sign-in requests an hour from one client, whatever the addresses", async () => {
    await awayFromWindowEdge(3600, 20);
    const client = asClient();
    for (let i = 0; i < 20; i++) expect((await signIn(client, newEmail("many"))).status).toBe(202);
    const refusedAddress = newEmail("many");
    await expectProblem(await signIn(client, refusedAddress), 429, "RATE_LIMITED");
    expect(await outboxMessages(refusedAddress)).toEqual([]);
    expect((await signIn(asClient(), refusedAddress)).status).toBe(202);
  }, 60_000);
});

describe("e-mail sign-in (the page)", () => {
  const pageHeaders = { "Sec-Fetch-Site": "same-origin", Origin: OWN_ORIGIN };
  const form = (fields: Record<string, string>, headers: Record<string, string> = pageHeaders): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

  it("the link's page shows a form that POSTs the token without using it; the POST sets the cookie", async () => {
    const client = asClient();
    const email = newEmail("page");
    expect((await client("/sign-in/email", form({ email }))).status).toBe(202);
    const { link, token } = await signInLinkFor(email);

    // A mail scanner opening the link (twice) uses nothing.
    for (let i = 0; i < 2; i++) {
      const page = await client(new URL(link).pathname + new URL(link).search);
      expect(page.status).toBe(200);
      expect(page.headers.get("cache-control")).toContain("no-store");
      // Not no-referrer: a browser would then POST the button with `Origin: null`, which is refused.
      expect(page.headers.get("referrer-policy")).toBe("same-origin");
      expect(setCookies(page)).toEqual([]);
      const html = await page.text();
      const formHtml = /<form[^>]*action="\/sign-in"[^>]*>[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";
      expect(formHtml).toMatch(/method="post"/);
      expect(formHtml).toContain(`name="token" value="${token}"`);
    }
    expect(await sqlRows("select 1 from sign_in_tokens where email = $1 and used_at is null", [email])).toHaveLength(1);

    // A page POST from another site is refused and uses nothing.
    const crossSite = await client("/sign-in", form({ token }, { "Sec-Fetch-Site": "cross-site" }));
    expect(crossSite.status).toBe(403);
    expect(setCookies(crossSite)).toEqual([]);

    const signedIn = await client("/sign-in", form({ token }));
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toContain(`Signed in as ${email}.`);
    const cookie = sessionCookie(signedIn);
    expect(cookie.attributes.has("httponly")).toBe(true);
    expect(cookie.attributes.has("secure")).toBe(true);
    expect(cookie.attributes.get("samesite")).toBe("Lax");
    expect(cookie.attributes.get("path")).toBe("/");
    expect(await (await readSession(cookie.value)).json()).toMatchObject({ email });

    const again = await client("/sign-in", form({ token }));
    expect(again.status).toBe(401);
    expect(setCookies(again)).toEqual([]);
  });

  it("shows a token from the link as text, never as markup", async () => {
    const hostile = '"><script>alert(1)</script>';
    const page = await asClient()(`/sign-in?token=${encodeURIComponent(hostile)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain('name="token" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});
