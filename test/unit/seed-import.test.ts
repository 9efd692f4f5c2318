/** Reading seed-import files (plain lists and the MCP Registry's server list) and the import command's arguments. */
import { describe, expect, it } from "vitest";
import { parseOperatorArgs, progressLine } from "../../scripts/operator.ts";
import { parseImportFile } from "../../src/domain/crawling/crawl-leads.ts";

describe("a plain list", () => {
  it("reads domains and URLs as https sites by their host, and reports every bad line with why", () => {
    const { source, items } = parseImportFile(
      [
        "# seed list",
        "Example.COM",
        "",
        "  https://shop.example.net/products?id=1  ",
        "http://blog.example.org:80/",
        "www.example.com./about",
        "ftp://files.example.com/",
        "two words.example.com",
        "localhost",
        "192.0.2.7",
        "printer.local",
        "https://api.example.com:8443/",
        `${"a".repeat(64)}.example.com`,
        `https://x.example.com/${"p".repeat(2100)}`,
      ].join("\r\n"),
    );
    expect(source).toBe("list");
    expect(items.filter((item) => item.kind === "lead")).toEqual([
      { kind: "lead", at: "line 2", domain: "example.com", origin: "https://example.com", mcpEndpoint: null },
      { kind: "lead", at: "line 4", domain: "shop.example.net", origin: "https://shop.example.net", mcpEndpoint: null },
      { kind: "lead", at: "line 5", domain: "blog.example.org", origin: "http://blog.example.org", mcpEndpoint: null },
      { kind: "lead", at: "line 6", domain: "www.example.com", origin: "https://www.example.com", mcpEndpoint: null },
    ]);
    const invalid = items.filter((item) => item.kind === "invalid");
    expect(invalid.map((item) => item.at)).toEqual([
      "line 7",
      "line 8",
      "line 9",
      "line 10",
      "line 11",
      "line 12",
      "line 13",
      "line 14",
    ]);
    for (const item of invalid) expect(item.kind === "invalid" && item.reason.length).toBeGreaterThan(5);
    expect(invalid.find((item) => item.at === "line 8")).toMatchObject({ reason: "more than one word on the line" });
  });

  it("takes local names only when allowed (development)", () => {
    expect(parseImportFile("printer.local", { allowPrivate: true }).items).toEqual([
      { kind: "lead", at: "line 1", domain: "printer.local", origin: "https://printer.local", mcpEndpoint: null },
    ]);
  });
});

describe("the MCP Registry's server list", () => {
  it("names a site by each remote's host and keeps the remote URL as its MCP lead", () => {
    const list = {
      servers: [
        {
          server: {
            name: "io.example/weather",
            version: "1.0.0",
            remotes: [
              { type: "streamable-http", url: "https://mcp.weather.example.com/mcp" },
              { type: "sse", url: "https://api.example.org/v1/sse" },
            ],
          },
          _meta: { "io.modelcontextprotocol.registry/official": { status: "active" } },
        },
        {
          server: { name: "io.example/local", version: "0.1.0", packages: [{ registryType: "npm", identifier: "x" }] },
        },
        {
          server: {
            name: "io.example/tenant",
            remotes: [{ type: "streamable-http", url: "https://{tenant}.example.com/mcp" }],
          },
        },
        { server: { name: "io.example/bad", remotes: [{ type: "streamable-http" }, { url: "not a url" }] } },
        "nonsense",
      ],
      metadata: { count: 5, nextCursor: null },
    };
    const { source, items } = parseImportFile(JSON.stringify(list));
    expect(source).toBe("mcp-registry");
    expect(items).toEqual([
      {
        kind: "lead",
        at: "server io.example/weather remote 1",
        domain: "mcp.weather.example.com",
        origin: "https://mcp.weather.example.com",
        mcpEndpoint: "https://mcp.weather.example.com/mcp",
      },
      {
        kind: "lead",
        at: "server io.example/weather remote 2",
        domain: "api.example.org",
        origin: "https://api.example.org",
        mcpEndpoint: "https://api.example.org/v1/sse",
      },
      {
        kind: "skip",
        at: "server io.example/local",
        reason: "no remote endpoint (a package run locally names no site)",
      },
      { kind: "skip", at: "server io.example/tenant", reason: "a URL template names no one site" },
      { kind: "invalid", at: "server io.example/bad remote 1", reason: "a remote without a url" },
      expect.objectContaining({ kind: "invalid", at: "server io.example/bad remote 2" }),
      { kind: "invalid", at: "entry 5", reason: "not a server object" },
    ]);
  });

  it("takes a bare array of entries or one server.json, and reports JSON it cannot read instead of failing", () => {
    const one = { name: "io.example/one", remotes: [{ type: "streamable-http", url: "https://one.example.com/mcp" }] };
    expect(parseImportFile(JSON.stringify(one)).items).toHaveLength(1);
    expect(parseImportFile(JSON.stringify([{ server: one }, one])).items).toHaveLength(2);
    expect(parseImportFile('{"servers": [').items).toEqual([
      expect.objectContaining({ kind: "invalid", at: "the file", reason: expect.stringMatching(/^not valid JSON/) }),
    ]);
    expect(parseImportFile('{"items": []}').items).toEqual([
      { kind: "invalid", at: "the file", reason: "JSON without a `servers` list or `remotes`" },
    ]);
  });
});

describe("npm run operator -- import", () => {
  it("takes a file, a rate, a batch size and --allow-private, and needs no operator name", () => {
    expect(parseOperatorArgs(["import", "list.txt"], {})).toEqual({
      command: "import",
      file: "list.txt",
      rate: 60,
      batch: 500,
      allowPrivate: false,
    });
    expect(parseOperatorArgs(["import", "--rate", "600", "list.txt", "--batch", "100", "--allow-private"], {})).toEqual(
      {
        command: "import",
        file: "list.txt",
        rate: 600,
        batch: 100,
        allowPrivate: true,
      },
    );
    expect(() => parseOperatorArgs(["import"], {})).toThrow(/needs a file/);
    expect(() => parseOperatorArgs(["import", "a", "b"], {})).toThrow(/unexpected arguments: b/);
    expect(() => parseOperatorArgs(["import", "a", "--rate", "0"], {})).toThrow(/--rate must be a whole number/);
    expect(() => parseOperatorArgs(["import", "a", "--rate", "1.5"], {})).toThrow(/--rate must be a whole number/);
    expect(() => parseOperatorArgs(["import", "a", "--batch"], {})).toThrow(/--batch needs a value/);
  });

  it("prints progress as done / queued / skipped / invalid", () => {
    expect(progressLine({ done: 500, total: 10_000, queued: 480, skipped: 15, alreadyIndexed: 12, invalid: 5 })).toBe(
      "import: done 500/10000 · queued 480 · skipped 15 (already indexed 12) · invalid 5",
    );
  });
});
