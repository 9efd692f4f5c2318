/**
 * ToolsServer (src/routes/mcp/tools-server.ts) does for a tools-only server what the SDK's own
 * `Server` did: the initialize handshake and its version negotiation, the check of every tool
 * result, the refusal of what the server does not offer. Driven here by the SDK's own client over
 * its in-memory transport; the served endpoint is tested in workerd by
 * test/integration/mcp-server.test.ts and by the conformance suite in test/e2e/mcp-server.test.ts.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { ToolsServer } from "../../src/routes/mcp/tools-server.ts";

const SERVER_INFO = { name: "tools-server-test", version: "9.9.9" };

/** A server with one well-behaved tool (`echo`) and one whose result is not a tool result (`broken`). */
function createServer(): ToolsServer {
  const server = new ToolsServer(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: "Call echo with text.",
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "echo", inputSchema: { type: "object" as const } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.name === "broken") return { content: "not a list of blocks" } as never;
    return { content: [{ type: "text" as const, text: String(request.params.arguments?.text ?? "") }] };
  });
  return server;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const closable of open.splice(0)) await closable.close();
});

async function connectClient(server: ToolsServer): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "unit-client", version: "1.0.0" });
  await client.connect(clientTransport);
  open.push(client, server);
  return client;
}

/** One raw JSON-RPC request to `server`; its one answer. */
async function exchange(server: ToolsServer, message: JSONRPCMessage): Promise<Record<string, unknown>> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  open.push(server);
  const answer = new Promise<Record<string, unknown>>((resolve) => {
    clientTransport.onmessage = (reply) => resolve(reply as Record<string, unknown>);
  });
  await clientTransport.start();
  await clientTransport.send(message);
  return answer;
}

describe("ToolsServer", () => {
  it("initializes the SDK client with its info, its tools capability and its instructions", async () => {
    const client = await connectClient(createServer());
    expect(client.getServerVersion()).toEqual(SERVER_INFO);
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
    expect(client.getInstructions()).toBe("Call echo with text.");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(await client.callTool({ name: "echo", arguments: { text: "hi" } })).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
    await expect(client.ping()).resolves.toEqual({});
  });

  it("answers a supported protocol version with itself and any other with the latest", async () => {
    const initialize = (protocolVersion: string) =>
      exchange(createServer(), {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      });
    const oldest = SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1] as string;
    expect(oldest).not.toBe(LATEST_PROTOCOL_VERSION);
    expect(await initialize(oldest)).toMatchObject({ id: 1, result: { protocolVersion: oldest } });
    expect(await initialize("1999-01-01")).toMatchObject({
      id: 1,
      result: { protocolVersion: LATEST_PROTOCOL_VERSION },
    });
  });

  it("refuses a tool result that is not one, rather than sending it", async () => {
    const answer = await exchange(createServer(), {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "broken", arguments: {} },
    });
    expect(answer).toMatchObject({ id: 2, error: { code: -32602 } });
    expect((answer.error as { message: string }).message).toMatch(/Invalid tools\/call result: /);
    // The same result is indeed malformed by the SDK's own schema.
    expect(CallToolResultSchema.safeParse({ content: "not a list of blocks" }).success).toBe(false);
  });

  it("refuses a tools/call that asks for a task, as it offers none", async () => {
    const answer = await exchange(createServer(), {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "echo", arguments: {}, task: { ttl: 1000 } },
    });
    expect(answer).toMatchObject({ id: 3, error: {} });
    expect((answer.error as { message: string }).message).toMatch(/does not support task creation/);
  });

  it("answers what it does not offer as an unknown method, and will not register a handler for it", async () => {
    const answer = await exchange(createServer(), { jsonrpc: "2.0", id: 4, method: "logging/setLevel", params: {} });
    expect(answer).toMatchObject({ id: 4, error: { code: -32601 } });
    expect(() => createServer().setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }))).toThrow(
      /does not answer resources\/list/,
    );
  });
});
