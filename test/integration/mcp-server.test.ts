/**
 * The service's own MCP server at /mcp (Streamable HTTP, stateless), called with raw JSON-RPC
 * POSTs as any client would: the handshake, the tool list and its schemas, each tool against the
 * REST endpoint it mirrors (same JSON, same errors), the search receipt's `mcp` surface, the
 * action-interest call from a search's sidecar, the shared search limit, and what other methods
 * and malformed requests get.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { fixture } from "../support/fixture-web.ts";
import { ACTION_TYPES, domainsOf, expectedSidecar, SEARCH_ID_FORMAT, type SearchBody } from "../support/search.ts";
import { CRAWLED_AT, expectedSiteRecord, insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, awayFromWindowEdge, expectProblem, type ProblemBody } from "../support/worker.ts";

type Client = ReturnType<typeof asClient>;

interface JsonRpcReply {
  jsonrpc: "2.0";
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

interface ToolCallResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

type ToolErrorBody = Record<string, unknown> & { code: string; message: string };

const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

const TOOL_NAMES = [
  "search_sites",
  "get_top_sites",
  "get_site",
  "list_categories",
  "get_stats",
  "check_site",
  "verify_mcp",
  "submit_site",
  "record_action_interest",
];

let nextId = 1;

function post(client: Client, message: unknown, headers: Record<string, string> = {}) {
  return client("/mcp", {
    method: "POST",
    headers: { ...MCP_HEADERS, ...headers },
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
}

/** One JSON-RPC request; asserts a 200 JSON reply (never a stream, never a session) and returns it. */
async function rpc(
  client: Client,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<JsonRpcReply> {
  const id = nextId++;
  const response = await post(client, { jsonrpc: "2.0", id, method, params }, headers);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.headers.get("mcp-session-id")).toBeNull();
  const reply = (await response.json()) as JsonRpcReply;
  expect(reply).toMatchObject({ jsonrpc: "2.0", id });
  return reply;
}

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<ToolCallResult> {
  const reply = await rpc(client, "tools/call", { name, arguments: args }, headers);
  expect(reply.error).toBeUndefined();
  return reply.result as unknown as ToolCallResult;
}

let outputValidators: Promise<Map<string, ValidateFunction>> | undefined;

/** Each tool's listed outputSchema, compiled (strict: a keyword Ajv does not know is an error). */
function listedOutputSchemas(client: Client): Promise<Map<string, ValidateFunction>> {
  outputValidators ??= rpc(client, "tools/list").then((reply) => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(ajv);
    const tools = reply.result?.tools as { name: string; outputSchema: Record<string, unknown> }[];
    return new Map(tools.map((tool) => [tool.name, ajv.compile(tool.outputSchema)]));
  });
  return outputValidators;
}

/**
 * A successful call: one text item holding exactly the structured content, which the tool's
 * listed outputSchema admits (as a validating MCP client checks it).
 */
async function callOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<T> {
  const result = await callTool(client, name, args, headers);
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  expect(result.content).toHaveLength(1);
  expect(result.content[0]?.type).toBe("text");
  expect(JSON.parse(result.content[0]?.text ?? "")).toStrictEqual(result.structuredContent);
  const validate = (await listedOutputSchemas(client)).get(name);
  expect(validate?.(result.structuredContent), JSON.stringify(validate?.errors)).toBe(true);
  return result.structuredContent as T;
}

/** A tool error with this code: JSON text, no stack, no structured content. */
async function callFails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  code: string,
  headers: Record<string, string> = {},
): Promise<ToolErrorBody> {
  const result = await callTool(client, name, args, headers);
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const body = JSON.parse(result.content[0]?.text ?? "") as ToolErrorBody;
  expect(body.code).toBe(code);
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(ts|js)|stack/i);
  return body;
}

async function getJson<T>(client: Client, path: string): Promise<T> {
  const response = await client(path);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

/** Sites of a fresh token: one with an MCP server scoring 80, one without scoring 40. */
async function tokenSites() {
  const t = uniqueToken();
  const withMcp = `mcp-${t}.test`;
  const without = `plain-${t}.test`;
  const rows = await insertSites([
    { domain: withMcp, name: `${t} Agents`, agenticScore: 80, hasMcpServer: true },
    { domain: without, name: `${t} Plain`, agenticScore: 40 },
  ]);
  return { t, withMcp, without, rows };
}

describe("MCP handshake and tool list", () => {
  it("initializes statelessly with the service's name, version, tools capability and instructions", async () => {
    const reply = await rpc(asClient(), "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "integration-test", version: "1.0.0" },
    });
    expect(reply.result).toMatchObject({
      protocolVersion: "2025-06-18",
      serverInfo: { name: "agent-readiness-search", version: "1.1.0" },
      capabilities: { tools: {} },
    });
    expect(reply.result?.instructions).toEqual(expect.stringMatching(/search_sites.*record_action_interest/s));

    // The initialized notification is accepted with 202 and no body.
    const notified = await post(asClient(), { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(notified.status).toBe(202);
  });

  it("lists every tool with a description and an object input schema taken from the REST route", async () => {
    const reply = await rpc(asClient(), "tools/list");
    const tools = reply.result?.tools as {
      name: string;
      description: string;
      inputSchema: { type: string; properties: Record<string, Record<string, unknown>>; required?: string[] };
      outputSchema: Record<string, unknown>;
      annotations: Record<string, unknown>;
    }[];
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.inputSchema.properties, tool.name).toBeTypeOf("object");
      // Every argument says what it is, for the model choosing its value.
      for (const [argument, schema] of Object.entries(tool.inputSchema.properties)) {
        expect(
          typeof schema.description === "string" && schema.description.length > 10,
          `${tool.name}.${argument}`,
        ).toBe(true);
      }
      // The body it returns as structuredContent: the REST success body's schema, self-contained.
      expect(tool.outputSchema.type, tool.name).toBe("object");
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toContain("$ref");
    }
    const outputs = Object.fromEntries(tools.map((tool) => [tool.name, tool.outputSchema]));
    expect(outputs.search_sites).toMatchObject({
      required: expect.arrayContaining(["search_id", "results", "action_interest"]),
      properties: { results: { type: "array" } },
    });
    expect(outputs.get_site?.allOf).toHaveLength(2);
    expect(outputs.record_action_interest).toMatchObject({ properties: { receipt_id: expect.any(Object) } });

    // Honest about writes: a search records a receipt, a detail with search_id a selection, a check
    // may queue a recrawl, a submission queues a crawl, an action interest is recorded.
    const writes = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations.readOnlyHint]));
    expect(writes).toEqual({
      search_sites: false,
      get_top_sites: true,
      get_site: false,
      list_categories: true,
      get_stats: true,
      check_site: false,
      verify_mcp: true,
      submit_site: false,
      record_action_interest: false,
    });
    for (const tool of tools.filter((entry) => entry.annotations.readOnlyHint === false)) {
      expect(tool.annotations.destructiveHint, tool.name).toBe(false);
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));

    // Search takes the REST query parameters, typed as JSON: booleans and integers with their bounds.
    expect(Object.keys(byName.search_sites?.properties ?? {})).toEqual([
      "q",
      "category",
      "tag",
      "min_score",
      "has_api",
      "has_mcp",
      "has_openapi",
      "has_llms_txt",
      "page",
    ]);
    expect(byName.search_sites).toMatchObject({
      additionalProperties: false,
      properties: {
        has_mcp: { type: "boolean" },
        min_score: { type: "integer", minimum: 0, maximum: 100 },
        page: { type: "integer", minimum: 1, maximum: 50 },
        q: { type: "string", maxLength: 200 },
      },
    });
    expect(byName.search_sites?.required).toBeUndefined();
    expect(byName.get_top_sites?.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(byName.get_site).toMatchObject({ required: ["domain"], properties: { search_id: { type: "string" } } });
    expect(byName.check_site).toMatchObject({ required: ["url"], additionalProperties: false });
    expect(byName.verify_mcp).toMatchObject({ required: ["url"] });
    expect(byName.submit_site).toMatchObject({ required: ["url"] });

    // The action-interest tool takes exactly the sidecar contract's argument list, all required.
    const contractArguments = expectedSidecar({ available: true, searchId: "", domains: [] }).call_contract
      .arguments_must_contain_only;
    const actionInterest = byName.record_action_interest;
    expect(Object.keys(actionInterest?.properties ?? {})).toEqual(contractArguments);
    expect(actionInterest?.required).toEqual(contractArguments);
    expect(actionInterest).toMatchObject({
      additionalProperties: false,
      properties: {
        action_type: { enum: ACTION_TYPES },
        caller_attests_principal_interest: { type: "boolean", enum: [true] },
        confirmation_version: { enum: ["svc-action-interest-v1"] },
      },
    });
  });
});

describe("MCP tools answer as their REST endpoints do", () => {
  it("search_sites: the REST search body, filters as JSON booleans and integers or as text, surface mcp", async () => {
    const client = asClient();
    const { t, withMcp, without } = await tokenSites();

    const all = await callOk<SearchBody>(client, "search_sites", { q: t });
    expect(domainsOf(all)).toEqual([withMcp, without]);
    expect(all).toMatchObject({ access: "free", receipt_recorded: true, total: 2, page: 1, has_next: false });
    expect(all.search_id).toMatch(SEARCH_ID_FORMAT);
    expect(all.action_interest).toEqual(
      expectedSidecar({ available: true, searchId: all.search_id, domains: [withMcp, without] }),
    );

    // Same body as REST for the same search, but for the receipt's own id.
    const rest = await getJson<SearchBody>(client, `/api/v1/search?q=${t}`);
    const withoutReceipt = ({ search_id: _id, action_interest: _sidecar, ...rest }: SearchBody) => rest;
    expect(withoutReceipt(all)).toStrictEqual(withoutReceipt(rest));

    const filtered = await callOk<SearchBody>(client, "search_sites", { q: t, has_mcp: true, min_score: 50, page: 1 });
    expect(domainsOf(filtered)).toEqual([withMcp]);
    const asText = await callOk<SearchBody>(client, "search_sites", { q: t, has_mcp: "true", min_score: "50" });
    expect(domainsOf(asText)).toEqual([withMcp]);
    expect(domainsOf(await callOk<SearchBody>(client, "search_sites", { q: t, has_mcp: false }))).toEqual([without]);

    const receipts = await sqlRows<{ search_id: string; surface: string; synthetic: boolean; result_count: number }>(
      "select search_id, surface, synthetic, result_count from search_receipts where search_id = any($1) order by result_count desc",
      [[all.search_id, filtered.search_id]],
    );
    expect(receipts).toEqual([
      { search_id: all.search_id, surface: "mcp", synthetic: false, result_count: 2 },
      { search_id: filtered.search_id, surface: "mcp", synthetic: false, result_count: 1 },
    ]);
    const [restReceipt] = await sqlRows("select surface from search_receipts where search_id = $1", [rest.search_id]);
    expect(restReceipt).toEqual({ surface: "rest" });
  });

  it("search_sites: X-SVC-Synthetic on the MCP request marks the receipt synthetic, with REST's rule", async () => {
    const client = asClient();
    const { t, withMcp, without } = await tokenSites();
    const synthetic = await callOk<SearchBody>(client, "search_sites", { q: t }, { "X-SVC-Synthetic": "true" });
    expect(domainsOf(synthetic)).toEqual([withMcp, without]);
    expect(synthetic.action_interest).toEqual(
      expectedSidecar({ available: false, searchId: synthetic.search_id, domains: [] }),
    );
    const [receipt] = await sqlRows("select surface, synthetic from search_receipts where search_id = $1", [
      synthetic.search_id,
    ]);
    expect(receipt).toEqual({ surface: "mcp", synthetic: true });

    const invalid = await callFails(client, "search_sites", { q: t }, "VALIDATION_FAILED", {
      "X-SVC-Synthetic": "maybe",
    });
    expect(invalid.errors).toEqual([
      { location: "header", field: "x-svc-synthetic", message: "must be true or false" },
    ]);
  });

  it("get_site: the site detail, recording the selection of an MCP search's result", async () => {
    const client = asClient();
    const { t, withMcp, rows } = await tokenSites();
    const search = await callOk<SearchBody>(client, "search_sites", { q: t });

    const detail = await callOk(client, "get_site", { domain: withMcp, search_id: search.search_id });
    expect(detail).toMatchObject({
      ...expectedSiteRecord(rows[0]!),
      last_crawled_at: CRAWLED_AT.toISOString(),
      selection_recorded: true,
    });
    expect(detail.action_interest).toEqual(
      expectedSidecar({ available: true, searchId: search.search_id, domains: [withMcp] }),
    );
    const selections = await sqlRows("select domain from result_selections where search_id = $1", [search.search_id]);
    expect(selections).toEqual([{ domain: withMcp }]);

    // Without a search id it is the REST detail, field for field.
    const plain = await callOk(client, "get_site", { domain: withMcp });
    expect(plain).toStrictEqual(await getJson(client, `/api/v1/site/${withMcp}`));
    expect(plain.selection_recorded).toBe(false);
  });

  it("get_top_sites, list_categories and get_stats: the REST bodies", async () => {
    const client = asClient();
    const top = await callOk<{ results: { domain: string }[]; total: number; limit: number }>(client, "get_top_sites", {
      has_mcp: true,
      limit: 100,
    });
    expect(top.limit).toBe(100);
    expect(top).toStrictEqual(await getJson(client, "/api/v1/top?has_mcp=true&limit=100"));
    expect(top.total).toBeGreaterThanOrEqual(1);

    const categories = await callOk<{ categories: { name: string; count: number }[] }>(client, "list_categories");
    expect(categories.categories.length).toBeGreaterThan(0);
    for (const category of categories.categories) {
      expect(category).toStrictEqual({ name: expect.any(String), count: expect.any(Number) });
    }
    expect(categories.categories.map((category) => category.name)).toContain("developer");

    const stats = await callOk<Record<string, unknown>>(client, "get_stats");
    const restStats = await getJson<Record<string, unknown>>(client, "/api/v1/stats");
    expect(Object.keys(stats).sort()).toEqual(Object.keys(restStats).sort());
    expect(stats.sites).toMatchObject({ total: expect.any(Number) });
  });

  it("verify_mcp: a live handshake with a real SDK server, as REST reports it", async () => {
    const client = asClient();
    const result = await callOk(client, "verify_mcp", { url: fixture("mcp-json") });
    expect(result).toMatchObject({ verified: true, endpoint: `${fixture("mcp-json")}/mcp` });
    expect(result).toStrictEqual(
      await getJson(client, `/api/v1/verify-mcp?url=${encodeURIComponent(fixture("mcp-json"))}`),
    );
  });
});

describe("MCP tool errors carry the REST problem's code and message", () => {
  it("answers a validation failure as a tool error with REST's VALIDATION_FAILED detail and fields", async () => {
    const client = asClient();
    const body = await callFails(client, "search_sites", { page: 0, has_mcp: "yes", bogus: 1 }, "VALIDATION_FAILED");
    const problem = await expectProblem(
      await client("/api/v1/search?page=0&has_mcp=yes&bogus=1"),
      400,
      "VALIDATION_FAILED",
    );
    // REST's fields and messages, each located in the tool's arguments (an MCP client sends no query).
    const asArguments = (problem.errors as { field: string; message: string }[]).map(({ field, message }) => ({
      location: "arguments",
      field,
      message: message === "unknown parameter, not accepted" ? "unknown argument, not accepted" : message,
    }));
    expect(body).toMatchObject({ code: "VALIDATION_FAILED", errors: asArguments });
    expect(body.message).toContain("bogus: unknown argument, not accepted");
    expect(JSON.stringify(body)).not.toMatch(/"location":"(query|path|body)"/);
    expect(body.errors).toHaveLength(3);

    // Integers must be integers, whether sent as JSON numbers or as text.
    const decimal = await callFails(client, "get_top_sites", { limit: 2.5 }, "VALIDATION_FAILED");
    expect(decimal.errors).toEqual([{ location: "arguments", field: "limit", message: "must be an integer" }]);

    // Body tools name the fields as REST does, as arguments too; so do path parameters (get_site's domain).
    const missing = await callFails(client, "check_site", {}, "VALIDATION_FAILED");
    expect(missing.errors).toEqual([{ location: "arguments", field: "url", message: "is required" }]);
    const noDomain = await callFails(client, "get_site", {}, "VALIDATION_FAILED");
    expect(noDomain.errors).toEqual([expect.objectContaining({ location: "arguments", field: "domain" })]);
  });

  it("answers a domain error (unknown domain) as a tool error with REST's code and message", async () => {
    const client = asClient();
    const domain = `unknown-${uniqueToken()}.test`;
    const body = await callFails(client, "get_site", { domain }, "SITE_NOT_FOUND");
    const problem = await expectProblem(await client(`/api/v1/site/${domain}`), 404, "SITE_NOT_FOUND");
    expect(body).toStrictEqual({ code: "SITE_NOT_FOUND", message: problem.detail });
  });

  it("answers an unknown tool with a JSON-RPC invalid-params error", async () => {
    const reply = await rpc(asClient(), "tools/call", { name: "no_such_tool", arguments: {} });
    expect(reply.result).toBeUndefined();
    expect(reply.error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool: no_such_tool/) });
  });
});

describe("record_action_interest over MCP", () => {
  it("records the interest a search's sidecar allows, by its call contract, end to end", async () => {
    const client = asClient();
    const { t, withMcp, without } = await tokenSites();
    const search = await callOk<SearchBody>(client, "search_sites", { q: t });
    const contract = search.action_interest.call_contract as {
      tool: string;
      domain_must_be_one_of: string[];
      action_type_must_be_one_of: string[];
      arguments_must_contain_only: string[];
      fixed_arguments_if_invocation_condition_met: Record<string, unknown>;
    };
    expect(contract.domain_must_be_one_of).toEqual([withMcp, without]);

    const args = {
      ...contract.fixed_arguments_if_invocation_condition_met,
      domain: contract.domain_must_be_one_of[0],
      action_type: "demo",
    };
    expect(Object.keys(args).sort()).toEqual([...contract.arguments_must_contain_only].sort());

    const receipt = await callOk(client, contract.tool, args);
    expect(receipt).toMatchObject({
      search_id: search.search_id,
      domain: withMcp,
      action_type: "demo",
      caller_attests_principal_interest: true,
      confirmation_version: "svc-action-interest-v1",
      provider_contacted: false,
      ticket_created: false,
      charge_created: false,
      commercial_proof: false,
      organic_rank_affected: false,
    });
    // An exact replay answers the same receipt; a different action on the same result conflicts.
    expect(await callOk(client, contract.tool, args)).toStrictEqual(receipt);
    const conflict = await callFails(
      client,
      contract.tool,
      { ...args, action_type: "quote" },
      "ACTION_INTEREST_CONFLICT",
    );
    expect(conflict.message).toMatch(/demo/);

    const stored = await sqlRows("select id, domain, action_type from action_interest_receipts where search_id = $1", [
      search.search_id,
    ]);
    expect(stored).toEqual([{ id: receipt.receipt_id, domain: withMcp, action_type: "demo" }]);
  });

  it("refuses what REST refuses: a domain the search did not return, a false attestation, a cross-origin page", async () => {
    const client = asClient();
    const { t, withMcp } = await tokenSites();
    const search = await callOk<SearchBody>(client, "search_sites", { q: t });
    const args = {
      search_id: search.search_id,
      domain: withMcp,
      action_type: "quote",
      caller_attests_principal_interest: true,
      confirmation_version: "svc-action-interest-v1",
    };
    await callFails(
      client,
      "record_action_interest",
      { ...args, domain: `elsewhere-${t}.test` },
      "ACTION_INTEREST_SOURCE_UNAVAILABLE",
    );
    const attestation = await callFails(
      client,
      "record_action_interest",
      { ...args, caller_attests_principal_interest: false },
      "VALIDATION_FAILED",
    );
    expect(attestation.errors).toEqual([
      expect.objectContaining({ location: "arguments", field: "caller_attests_principal_interest" }),
    ]);
    const extra = await callFails(
      client,
      "record_action_interest",
      { ...args, email: "a@b.test" },
      "VALIDATION_FAILED",
    );
    expect(extra.errors).toEqual([
      { location: "arguments", field: "email", message: "unknown argument, not accepted" },
    ]);
    await callFails(client, "record_action_interest", args, "CROSS_ORIGIN_MUTATION", {
      Origin: "https://elsewhere.example",
    });
    expect(await sqlRows("select id from action_interest_receipts where search_id = $1", [search.search_id])).toEqual(
      [],
    );
  });
});

describe("rate limits over MCP", () => {
  it("counts search_sites against the REST search limit: the 241st search of an hour is RATE_LIMITED", async () => {
    await awayFromWindowEdge(3600, 60);
    const client = asClient();
    const q = uniqueToken();

    // One REST search first: both surfaces share one counter per client.
    const rest = await client(`/api/v1/search?q=${q}`);
    expect(rest.headers.get("ratelimit-remaining")).toBe("239");
    await rest.body?.cancel();

    for (let batch = 0; batch < 6; batch++) {
      const size = batch === 5 ? 39 : 40;
      const results = await Promise.all(Array.from({ length: size }, () => callTool(client, "search_sites", { q })));
      for (const result of results) expect(result.isError, result.content[0]?.text).toBeFalsy();
    }

    const refused = await callFails(client, "search_sites", { q }, "RATE_LIMITED");
    expect(refused).toMatchObject({ limit: 240, retry_after_seconds: expect.any(Number) });
    expect(refused.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(refused.retry_after_seconds).toBeLessThanOrEqual(3600);
    expect(refused.message).toMatch(/240/);

    // REST sees the same exhausted counter; another client still searches over MCP.
    const restRefused: ProblemBody = await expectProblem(await client(`/api/v1/search?q=${q}`), 429, "RATE_LIMITED");
    expect(restRefused.limit).toBe(240);
    await callOk(asClient(), "search_sites", { q });
  }, 180_000);
});

describe("rate limits over MCP, other tools", () => {
  it("counts check_site against the REST check limit (10 per hour) once its arguments are valid, as REST does", async () => {
    await awayFromWindowEdge(3600, 30);
    const client = asClient();
    const restCheck = (body: unknown) =>
      client("/api/v1/check", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    // More refused requests than the limit, on both surfaces: none of them is counted.
    for (let i = 0; i < 6; i++) await expectProblem(await restCheck({}), 400, "VALIDATION_FAILED");
    for (let i = 0; i < 6; i++) await callFails(client, "check_site", {}, "VALIDATION_FAILED");
    await callFails(client, "check_site", { url: "ftp://example.com/" }, "INVALID_URL");

    const url = fixture("nothing");
    for (let i = 0; i < 5; i++) expect((await restCheck({ url })).status).toBe(200);
    for (let i = 0; i < 5; i++) await callOk(client, "check_site", { url });

    const refused = await callFails(client, "check_site", { url }, "RATE_LIMITED");
    expect(refused).toMatchObject({ limit: 10, retry_after_seconds: expect.any(Number) });
    await expectProblem(await restCheck({ url }), 429, "RATE_LIMITED");
  });

  it("answers submit_site's refusal of a URL with REST's code", async () => {
    const client = asClient();
    const body = await callFails(client, "submit_site", { url: "gopher://a.example/" }, "INVALID_URL");
    const problem = await expectProblem(
      await client("/api/v1/submit", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ url: "gopher://a.example/" }),
      }),
      400,
      "INVALID_URL",
    );
    expect(body).toStrictEqual({ code: "INVALID_URL", message: problem.detail });
  });
});

describe("browser MCP clients on another origin", () => {
  const PAGE_ORIGIN = "https://agent-console.example";
  const BROWSER = { Origin: PAGE_ORIGIN, "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors" };

  it("gets a CORS preflight that allows POST with the MCP headers", async () => {
    const preflight = await asClient()("/mcp", {
      method: "OPTIONS",
      headers: {
        ...BROWSER,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, accept, mcp-protocol-version, x-svc-synthetic",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")?.split(/,\s*/)).toEqual(
      expect.arrayContaining(["POST"]),
    );
    const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(
      expect.arrayContaining([
        "content-type",
        "accept",
        "mcp-protocol-version",
        "mcp-session-id",
        "last-event-id",
        "x-svc-synthetic",
      ]),
    );
    expect(Number(preflight.headers.get("access-control-max-age"))).toBeGreaterThan(0);
  });

  it("can read the answers of POST /mcp, and searches like any client", async () => {
    const client = asClient();
    const { t, withMcp } = await tokenSites();
    const response = await post(client, { jsonrpc: "2.0", id: 1, method: "tools/list" }, BROWSER);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = (response.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    expect(exposed).toContain("mcp-session-id");
    expect(exposed).toContain("x-request-id");
    await response.body?.cancel();

    const search = await callOk<SearchBody>(client, "search_sites", { q: t }, BROWSER);
    expect(domainsOf(search)).toContain(withMcp);
  });

  it("still cannot record an action interest, as POST /action-interests refuses it", async () => {
    const client = asClient();
    const { t, withMcp } = await tokenSites();
    const search = await callOk<SearchBody>(client, "search_sites", { q: t });
    const args = {
      search_id: search.search_id,
      domain: withMcp,
      action_type: "demo",
      caller_attests_principal_interest: true,
      confirmation_version: "svc-action-interest-v1",
    };
    const refused = await callFails(client, "record_action_interest", args, "CROSS_ORIGIN_MUTATION", BROWSER);
    const rest = await client("/api/v1/action-interests", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...BROWSER },
      body: JSON.stringify(args),
    });
    const problem = await expectProblem(rest, 403, "CROSS_ORIGIN_MUTATION");
    expect(refused).toStrictEqual({ code: "CROSS_ORIGIN_MUTATION", message: problem.detail });
    expect(await sqlRows("select id from action_interest_receipts where search_id = $1", [search.search_id])).toEqual(
      [],
    );
  });

  it("keeps the other paths' CORS as it was: a preflight for POST elsewhere allows reads only", async () => {
    const preflight = await asClient()("/api/v1/check", {
      method: "OPTIONS",
      headers: { ...BROWSER, "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET,HEAD");
  });
});

describe("the /mcp endpoint over HTTP", () => {
  it.each(["GET", "DELETE"])("answers %s with 405 and a JSON-RPC error, never HTML", async (method) => {
    const response = await asClient()("/mcp", { method, headers: { Accept: "text/event-stream" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: expect.stringMatching(/POST/) },
      id: null,
    });
  });

  it("answers malformed JSON, a non-JSON-RPC body and a missing Accept with JSON-RPC errors", async () => {
    const client = asClient();
    const malformed = await post(client, "{not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });

    // Valid JSON that is not a JSON-RPC message is JSON-RPC's Invalid Request.
    const notRpc = await post(client, { hello: "world" });
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });

    const noAccept = await post(
      client,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { Accept: "application/json" },
    );
    expect(noAccept.status).toBe(406);
    expect(noAccept.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await noAccept.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
  });
});
