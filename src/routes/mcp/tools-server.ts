/**
 * An MCP server that offers tools and nothing else, on the SDK's own `Protocol` (JSON-RPC framing,
 * request dispatch, ping, cancellation) rather than on its `Server` class.
 *
 * Why not `Server`: its module builds an Ajv JSON Schema compiler by default (and so bundles Ajv,
 * ajv-formats and fast-uri, about 57 KiB gzip, and the experimental task API) for one use, checking
 * the answer a client gives to an elicitation request. This server never asks the client anything,
 * so that code was dead weight in every bundle that holds the mcp group
 * (docs/operations.md, "Workers per group"). What `Server` does for a tools-only server is kept:
 * the initialize handshake (the SDK's protocol version negotiation, capabilities, server info and
 * instructions), the refusal of handlers for capabilities the server did not declare, and the check
 * of every tools/call result against the SDK's `CallToolResultSchema`.
 */
import type { AnyObjectSchema, SchemaOutput } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { getMethodLiteral } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import { Protocol, type ProtocolOptions, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolResultSchema,
  ErrorCode,
  type Implementation,
  InitializedNotificationSchema,
  type InitializeRequest,
  InitializeRequestSchema,
  type InitializeResult,
  LATEST_PROTOCOL_VERSION,
  McpError,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";

/** What a tools-only server declares: its tools (and whether their list can change). */
export interface ToolsServerCapabilities {
  tools: { listChanged?: boolean };
}

export interface ToolsServerOptions extends ProtocolOptions {
  capabilities: ToolsServerCapabilities;
  instructions?: string;
}

// The requests a tools-only server answers; any other handler is a programming error.
const ANSWERED_METHODS = new Set(["initialize", "ping", "tools/list", "tools/call"]);

// The notifications it may send: those of the protocol itself (a tool's progress, a cancellation).
const SENT_NOTIFICATIONS = new Set(["notifications/progress", "notifications/cancelled"]);

/** A stateless MCP server whose only capability is tools. */
export class ToolsServer extends Protocol<ServerRequest, ServerNotification, ServerResult> {
  private readonly capabilities: ToolsServerCapabilities;
  private readonly instructions: string | undefined;

  constructor(
    private readonly serverInfo: Implementation,
    options: ToolsServerOptions,
  ) {
    super(options);
    this.capabilities = options.capabilities;
    this.instructions = options.instructions;
    this.setRequestHandler(InitializeRequestSchema, (request) => this.initialize(request));
    // A stateless server keeps nothing between requests, so the client's "initialized" needs no answer.
    this.setNotificationHandler(InitializedNotificationSchema, () => {});
  }

  /** The capabilities answered to initialize. */
  getCapabilities(): ToolsServerCapabilities {
    return this.capabilities;
  }

  /**
   * Registers the handler of a request, as `Protocol` does; a tools/call handler's result is
   * checked against the SDK's schema of a tool result, so a malformed one is an error the client
   * sees rather than a body it cannot read.
   */
  override setRequestHandler<T extends AnyObjectSchema>(
    requestSchema: T,
    handler: (
      request: SchemaOutput<T>,
      extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
    ) => ServerResult | Promise<ServerResult>,
  ): void {
    if (getMethodLiteral(requestSchema) !== "tools/call") {
      super.setRequestHandler(requestSchema, handler);
      return;
    }
    super.setRequestHandler(requestSchema, async (request, extra) => {
      const checked = CallToolResultSchema.safeParse(await handler(request, extra));
      if (!checked.success) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
      }
      return checked.data;
    });
  }

  // The same negotiation as the SDK's Server: the client's version when supported, else the latest.
  private initialize(request: InitializeRequest): InitializeResult {
    const requested = request.params.protocolVersion;
    return {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
      capabilities: this.capabilities,
      serverInfo: this.serverInfo,
      ...(this.instructions ? { instructions: this.instructions } : {}),
    };
  }

  /** The server sends the client no request (no sampling, elicitation or roots). */
  protected assertCapabilityForMethod(method: string): void {
    if (method !== "ping") throw new Error(`this server sends no ${method} request`);
  }

  protected assertNotificationCapability(method: string): void {
    if (!SENT_NOTIFICATIONS.has(method)) throw new Error(`this server sends no ${method} notification`);
  }

  protected assertRequestHandlerCapability(method: string): void {
    if (!ANSWERED_METHODS.has(method)) throw new Error(`a tools-only server does not answer ${method}`);
  }

  /** The server sends the client no request, so none asks the client for a task. */
  protected assertTaskCapability(method: string): void {
    throw new Error(`this server sends no ${method} request`);
  }

  /** Tasks are not offered: a tools/call asking for one is refused, as the SDK's Server refuses it. */
  protected assertTaskHandlerCapability(method: string): void {
    if (method === "tools/call") throw new Error(`Server does not support task creation (required for ${method})`);
  }
}
