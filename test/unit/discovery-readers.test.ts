/**
 * The pure readers behind the later discovery routes, each against its standard's own examples:
 * the AIPREF vocabulary's processing algorithm (draft-ietf-aipref-vocab), the server-card
 * extension's templated remotes (schema.ts, examples/ServerCard/valid/templated-remote.json), JSON
 * References resolved by RFC 3986, and the MCP Catalog read as an AI Catalog.
 */
import { describe, expect, it } from "vitest";
import { readAiCatalogDocument } from "../../src/domain/signals/ai-catalog.ts";
import { fillTemplate, findDiscoveredEndpoint, referenceOf } from "../../src/domain/signals/detect-mcp-server.ts";
import { parseContentUsage, readUsagePreferences } from "../../src/domain/signals/detect-robots-ai.ts";

describe("AIPREF preference expressions (draft-ietf-aipref-vocab, Processing Algorithm)", () => {
  it("reads Token y and n, ignoring parameters and unknown keys", () => {
    expect(readUsagePreferences("train-ai=n, search=y")).toEqual({ "train-ai": "n", search: "y" });
    expect(readUsagePreferences('train-genai=n;reason="x", x-vendor=?1')).toEqual({ "train-genai": "n" });
  });

  it("keeps the last value of a repeated key, so the draft's example states nothing", () => {
    expect(readUsagePreferences('train-ai=y, train-ai, search=n, search="n"')).toBeNull();
    expect(readUsagePreferences("train-ai;allow=n, train-ai=y")).toEqual({ "train-ai": "y" });
  });

  it("leaves every preference unknown when the Dictionary does not parse", () => {
    expect(readUsagePreferences("Train-AI=n")).toBeNull();
    expect(readUsagePreferences("train-ai=n,, search=y")).toBeNull();
  });

  it("reads a robots.txt rule's optional path before the expression (draft-ietf-aipref-attach)", () => {
    expect(parseContentUsage("/ai-ok/ train-ai=y")).toEqual({ path: "/ai-ok/", preferences: { "train-ai": "y" } });
    expect(parseContentUsage("train-ai=n")).toEqual({ path: null, preferences: { "train-ai": "n" } });
    expect(parseContentUsage("/ Train-AI=n")).toBeNull();
  });
});

describe("templated remotes (MCP server-card extension, Remote.variables)", () => {
  it("fills a template from each variable's value, else its default", () => {
    expect(fillTemplate("https://{tenant}.example.com/mcp", { tenant: { default: "acme" } })).toBe(
      "https://acme.example.com/mcp",
    );
    expect(fillTemplate("https://x.example/{a}/{b}", { a: { value: "v", default: "d" }, b: { default: "e" } })).toBe(
      "https://x.example/v/e",
    );
  });

  it("names no endpoint while a variable has neither, or would change the URL's structure", () => {
    expect(fillTemplate("https://{tenant}.example.com/mcp", { tenant: { isRequired: true } })).toBeNull();
    expect(fillTemplate("https://{tenant}.example.com/mcp", undefined)).toBeNull();
    expect(fillTemplate("https://{host}/mcp", { host: { default: "evil.example/x" } })).toBeNull();
  });

  it("the extension's own example card names its endpoint once filled in", () => {
    const card = {
      $schema: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
      name: "example-org/with-remote",
      version: "2.1.0",
      remotes: [
        {
          type: "streamable-http",
          url: "https://{tenant}.example.com/mcp",
          variables: { tenant: { description: "Tenant subdomain.", isRequired: true, default: "default" } },
        },
      ],
    };
    expect(findDiscoveredEndpoint(card, "https://example.com/mcp/server-card")).toBe("https://default.example.com/mcp");
  });
});

describe("JSON References", () => {
  const origin = "https://site.example";
  it("resolve as RFC 3986 resolves a relative reference, on the site's origin only", () => {
    expect(referenceOf({ $ref: "b.json" }, `${origin}/cards/a.json`, origin)).toBe(`${origin}/cards/b.json`);
    expect(referenceOf({ $ref: ".well-known/mcp/server-card.json" }, `${origin}/.well-known/mcp.json`, origin)).toBe(
      `${origin}/.well-known/.well-known/mcp/server-card.json`,
    );
    expect(
      referenceOf({ $ref: "https://other.example/card.json" }, `${origin}/.well-known/mcp.json`, origin),
    ).toBeNull();
  });

  it("only a document that is nothing but a reference is one", () => {
    expect(referenceOf({ $ref: "/card.json", name: "x/y" }, `${origin}/.well-known/mcp.json`, origin)).toBeNull();
    expect(referenceOf({ $ref: "/card.json", $comment: "moved" }, `${origin}/.well-known/mcp.json`, origin)).toBe(
      `${origin}/card.json`,
    );
    expect(referenceOf({ $ref: "#" }, `${origin}/.well-known/mcp.json`, origin)).toBeNull();
  });
});

describe("the MCP Catalog read as an AI Catalog", () => {
  it("reads both of its drafts' entry shapes as server cards", () => {
    const read = readAiCatalogDocument(
      {
        specVersion: "draft",
        entries: [
          {
            identifier: "urn:air:example.com:weather",
            displayName: "W",
            type: "application/mcp-server-card+json",
            url: "/a/server-card",
          },
          {
            identifier: "urn:mcp:server:com.example/docs",
            displayName: "D",
            mediaType: "application/mcp-server+json",
            url: "https://example.com/d/server-card",
          },
        ],
      },
      "https://example.com/.well-known/mcp/catalog.json",
    );
    if ("problem" in read) throw new Error(read.problem);
    expect(read.entries.map((entry) => [entry.kind, entry.url])).toEqual([
      ["mcp-server-card", "https://example.com/a/server-card"],
      ["mcp-server-card", "https://example.com/d/server-card"],
    ]);
  });
});
