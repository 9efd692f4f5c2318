/**
 * The local stack's mail and DNS endpoints: the outbox answers Resend's own SDK exactly as Resend
 * does for the calls the service makes, and the zone answers the JSON DoH format with records a
 * person or a test adds and removes.
 */
import { Resend } from "resend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { createResendMailer, MailError } from "../../src/adapters/mail.ts";

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({ pgliteDataDir: "memory", sqlPort: 0, redisPort: 0 });
}, 60_000);
afterAll(() => stack?.stop());

const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;

describe("the mail outbox (Resend's send API)", () => {
  const client = () => new Resend(stack.mailApiKey, { baseUrl: stack.mailApiUrl });

  it("takes a message from the Resend SDK and lists it for its recipient, newest first", async () => {
    const to = unique("reader");
    const first = await client().emails.send({ from: "Service <mail@svc.example>", to, subject: "One", text: "first" });
    const second = await client().emails.send({
      from: "Service <mail@svc.example>",
      to: [to],
      subject: "Two",
      text: "second https://svc.example/sign-in?token=abc",
      html: "<p>second</p>",
      headers: { "List-Unsubscribe": "<https://svc.example/u/1>" },
    });
    expect(first.error).toBeNull();
    expect(second.error).toBeNull();
    const listed = (await (await fetch(`${stack.outboxUrl}/messages?to=${encodeURIComponent(to)}`)).json()) as Record<
      string,
      unknown
    >[];
    expect(listed.map((message) => message.subject)).toEqual(["Two", "One"]);
    expect(listed[0]).toEqual({
      id: second.data?.id,
      to: [to],
      from: "Service <mail@svc.example>",
      subject: "Two",
      text: "second https://svc.example/sign-in?token=abc",
      html: "<p>second</p>",
      headers: { "List-Unsubscribe": "<https://svc.example/u/1>" },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const page = await (await fetch(`${stack.outboxUrl}/`)).text();
    expect(page).toContain('<a href="https://svc.example/sign-in?token=abc">');
  });

  it("refuses a wrong key and an invalid message as Resend does, keeping nothing", async () => {
    const to = unique("refused");
    const wrongKey = await new Resend("re_wrong", { baseUrl: stack.mailApiUrl }).emails.send({
      from: "mail@svc.example",
      to,
      subject: "x",
      text: "x",
    });
    expect(wrongKey.error).toMatchObject({ name: "invalid_api_key" });
    const noBody = await client().emails.send({ from: "mail@svc.example", to, subject: "x" } as never);
    expect(noBody.error).toMatchObject({ name: "validation_error" });
    const listed = (await (
      await fetch(`${stack.outboxUrl}/messages?to=${encodeURIComponent(to)}`)
    ).json()) as unknown[];
    expect(listed).toEqual([]);
  });
});

describe("the service's mailer against the outbox", () => {
  it("sends the plain-text part, the sender from configuration and its headers", async () => {
    const to = unique("mailer");
    const mailer = createResendMailer({
      apiKey: stack.mailApiKey,
      from: "Svc <mail@svc.example>",
      baseUrl: stack.mailApiUrl,
    });
    const { id } = await mailer.send({ to, subject: "Hello", text: "plain", headers: { "X-Entity-Ref-ID": "1" } });
    const [message] = (await (
      await fetch(`${stack.outboxUrl}/messages?to=${encodeURIComponent(to)}`)
    ).json()) as Record<string, unknown>[];
    expect(message).toMatchObject({ id, from: "Svc <mail@svc.example>", subject: "Hello", text: "plain", html: null });
    expect(message?.headers).toEqual({ "X-Entity-Ref-ID": "1" });
  });

  it("throws a MailError that says whether a retry may help", async () => {
    const refused = createResendMailer({ apiKey: "re_wrong", from: "mail@svc.example", baseUrl: stack.mailApiUrl });
    await expect(refused.send({ to: unique("x"), subject: "s", text: "t" })).rejects.toMatchObject({
      name: "MailError",
      retryable: false,
    });
    const unreachable = createResendMailer({ apiKey: "k", from: "mail@svc.example", baseUrl: "http://127.0.0.1:9" });
    const error = await unreachable.send({ to: unique("y"), subject: "s", text: "t" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailError);
    expect((error as MailError).retryable).toBe(true);
  });
});

describe("the DNS zone (JSON DoH)", () => {
  const query = async (name: string, type: string | number) =>
    (await (
      await fetch(`${stack.dohUrl}?name=${encodeURIComponent(name)}&type=${type}`, {
        headers: { accept: "application/dns-json" },
      })
    ).json()) as { Status: number; Answer?: { name: string; type: number; data: string }[] };
  const put = (name: string, type: string, value: string) =>
    fetch(`${stack.dnsZoneUrl}/records`, { method: "PUT", body: JSON.stringify({ name, type, value }) });

  it("answers a TXT record added by PUT, by mnemonic and by number, quoted as DoH gives TXT data", async () => {
    const name = `_svc-challenge.${crypto.randomUUID().slice(0, 8)}.example`;
    expect((await put(name, "TXT", "svc-verify=abc123")).status).toBe(201);
    for (const type of ["TXT", 16]) {
      const answer = await query(`${name}.`, type);
      expect(answer.Status).toBe(0);
      expect(answer.Answer).toEqual([{ name, type: 16, TTL: 60, data: '"svc-verify=abc123"' }]);
    }
  });

  it("splits long TXT values into 255-character strings", async () => {
    const name = `long.${crypto.randomUUID().slice(0, 8)}.example`;
    await put(name, "TXT", "a".repeat(300));
    const [record] = (await query(name, "TXT")).Answer ?? [];
    expect(record?.data).toBe(`"${"a".repeat(255)}" "${"a".repeat(45)}"`);
  });

  it("follows a CNAME inside the zone and removes records by DELETE", async () => {
    const host = `${crypto.randomUUID().slice(0, 8)}.example`;
    await put(`www.${host}`, "CNAME", host);
    await put(host, "A", "127.0.0.1");
    expect((await query(`www.${host}`, "A")).Answer?.map((answer) => answer.data)).toEqual([`${host}.`, "127.0.0.1"]);
    const removed = await fetch(`${stack.dnsZoneUrl}/records?name=${host}&type=A`, { method: "DELETE" });
    expect(await removed.json()).toEqual({ removed: 1 });
    expect((await query(host, "A")).Answer).toBeUndefined();
  });

  it("answers SVCB and HTTPS records (DNS-AID) in presentation form, and NODATA for a type the name lacks", async () => {
    const host = `${crypto.randomUUID().slice(0, 8)}.example`;
    const name = `_mcp._agents.${host}`;
    expect((await put(name, "HTTPS", `1 mcp.${host}. alpn="h2" port=443`)).status).toBe(201);
    for (const type of ["HTTPS", 65]) {
      expect((await query(name, type)).Answer).toEqual([
        { name, type: 65, TTL: 60, data: `1 mcp.${host}. alpn="h2" port=443` },
      ]);
    }
    const svcb = await query(name, "SVCB");
    expect({ status: svcb.Status, answer: svcb.Answer }).toEqual({ status: 0, answer: undefined });
  });

  it("refuses malformed records and answers NXDOMAIN outside the zone when it has no upstream", async () => {
    expect((await put("not a name", "TXT", "x")).status).toBe(400);
    expect((await put("ok.example", "MX", "x")).status).toBe(400);
    expect((await query(`absent-${crypto.randomUUID().slice(0, 8)}.example`, "TXT")).Status).toBe(3);
  });

  it("answers reserved names itself even with an upstream, and SERVFAIL when the upstream cannot be reached", async () => {
    const { createDnsZoneServer } = await import("../../scripts/local-stack/dns-zone.ts");
    const { listen, close } = await import("../../scripts/local-stack/http.ts");
    const upstreamCalls: string[] = [];
    const { server } = createDnsZoneServer({
      upstream: "http://upstream.invalid/dns-query",
      fetchImpl: (async (url: string | URL) => {
        upstreamCalls.push(String(url));
        throw new Error("unreachable");
      }) as typeof fetch,
    });
    const port = await listen(server, 0);
    try {
      const ask = async (name: string) =>
        ((await (await fetch(`http://127.0.0.1:${port}/dns-query?name=${name}&type=TXT`)).json()) as { Status: number })
          .Status;
      expect(await ask("_agent-readiness-challenge.shop.example")).toBe(3);
      expect(upstreamCalls).toEqual([]);
      expect(await ask("real-site.com")).toBe(2);
      expect(upstreamCalls).toHaveLength(1);
    } finally {
      await close(server);
    }
  });
});
