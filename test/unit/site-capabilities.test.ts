/**
 * What a site's documents say it does (site-capabilities.ts), read by the format readers from real
 * documents (`../shared/realworld-corpus-2026` and `../shared/realworld-corpus` beside the
 * repository), then cleaned, de-duplicated and capped with a fair share per source.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CAPABILITIES_TEXT_MAX } from "../../db/schema/sites.ts";
import {
  CAPABILITY_DESCRIPTION_MAX,
  CAPABILITY_NAME_MAX,
  capabilitiesOf,
  capabilitiesTextOf,
  cleanCapabilityText,
} from "../../src/domain/capabilities/site-capabilities.ts";
import { readAgentCard } from "../../src/domain/readers/a2a-card.ts";
import { readSkillsIndex } from "../../src/domain/readers/agent-skills.ts";
import { readAiCatalogDocument } from "../../src/domain/readers/ard.ts";
import { readOpenApiDocument } from "../../src/domain/readers/openapi.ts";
import { readLlmsSummary, readLlmsTitle } from "../../src/domain/signals/detect-llms-txt.ts";
import { readToolsList } from "../../src/domain/signals/mcp-probe.ts";

const CORPUS_2026 = new URL("../../../shared/realworld-corpus-2026/", import.meta.url);
const CORPUS = new URL("../../../shared/realworld-corpus/", import.meta.url);
const text = (base: URL, path: string) => readFileSync(new URL(path, base), "utf8");
const json = (base: URL, path: string): Record<string, unknown> => JSON.parse(text(base, path));

/** A real card's `tools`: the objects tools/list returns (name, description, inputSchema). */
const realTools = (path: string) => readToolsList(json(CORPUS_2026, path).tools as unknown[]);

function openapi(path: string) {
  const read = readOpenApiDocument(text(CORPUS, path));
  if ("problem" in read) throw new Error(read.problem);
  return read;
}

describe("the readers' capability terms, from real documents", () => {
  it("a tools/list's tools keep name, title and description; a tool without a name is skipped", () => {
    const tools = realTools("mcp-server-card/msc-audiopod.json");
    expect(tools).toHaveLength(10);
    expect(tools[0]).toEqual({
      name: "text_to_speech",
      description: "Synthesize speech from text in 200+ languages and 500+ voices.",
    });
    expect(readToolsList([{ description: "no name" }, "x", { name: "a", title: "A tool" }])).toEqual([
      { name: "a", title: "A tool" },
    ]);
  });

  it("an OpenAPI document gives its operations (operationId, summary, tags) and its tags", () => {
    const petstore = openapi("openapi/openapi-oai-v3-petstore-yaml.yaml");
    expect(petstore.operations.map((operation) => operation.operationId)).toEqual([
      "listPets",
      "createPets",
      "showPetById",
    ]);
    expect(petstore.operations[0]).toEqual({ operationId: "listPets", summary: "List all pets", tags: ["pets"] });
    expect(petstore.tags).toEqual(["pets"]);
  });

  it("an A2A card gives its skills; an ARD manifest its entries' terms; an Agent Skills index its descriptions", () => {
    const card = readAgentCard(json(CORPUS_2026, "a2a-agent-card/a2a-drawio-legacy.json"));
    if ("problem" in card) throw new Error(card.problem);
    expect(card.skills[0]?.name).toBe("Generate Diagram");
    const catalog = readAiCatalogDocument(json(CORPUS_2026, "ai-catalog/aic-kulikowski.json"), "https://k.example/");
    if ("problem" in catalog) throw new Error(catalog.problem);
    expect(catalog.entries[0]?.capabilities).toEqual(["ListCatalog", "CheckStock", "OrderPart", "GetOrderStatus"]);
    expect(catalog.entries[0]?.representativeQueries[0]).toBe("find a missing Forge Titan shoulder actuator bracket");
    const index = readSkillsIndex(
      json(CORPUS_2026, "agent-skills-index/skills-stellar-v020.json"),
      "https://s.example/",
    );
    if ("problem" in index) throw new Error(index.problem);
    expect(index.skills[0]?.description).toMatch(/^Agentic and machine-to-machine payments on Stellar/);
  });

  it("an llms.txt's summary is the block quote after its title, and only that", () => {
    const body = text(CORPUS_2026, "llms-txt/llmsfull-pravesh-wellknown.txt");
    expect(readLlmsSummary(body)).toMatch(/^Complete machine-readable documentation for praveshsingh\.com\. Intended/);
    expect(readLlmsSummary(text(CORPUS_2026, "llms-txt/llms-laisky-section.txt"))).toBeNull();
    expect(readLlmsSummary("Title\n=====\n\n> Setext too\n> two lines\n\nbody")).toBe("Setext too two lines");
    expect(readLlmsSummary("no title")).toBeNull();
  });
});

describe("the capabilities kept", () => {
  it("group the real documents' words by source, and the text holds each item once", () => {
    const catalog = readAiCatalogDocument(json(CORPUS_2026, "ai-catalog/aic-laisky.json"), "https://laisky.example/");
    if ("problem" in catalog) throw new Error(catalog.problem);
    const groups = capabilitiesOf({
      llms: { title: "Laisky Blog", summary: null },
      mcpTools: realTools("mcp-server-card/msc-laisky.json"),
      ardEntries: catalog.reachable,
    });
    expect(groups?.map((group) => group.source)).toEqual(["llms-txt", "mcp", "ard"]);
    const text = capabilitiesTextOf(groups);
    expect(text).toContain("discover_blog_resources: Discover canonical public resources");
    // The manifest lists the MCP tool by name: the described tool stands for it.
    expect(text.match(/discover_blog_resources/g)).toHaveLength(1);
    expect(text).toContain("find Laisky MCP resources");
  });

  it("are cut to the cap with a fair share: hundreds of operations leave the tools and the summary in", () => {
    const operations = Array.from({ length: 500 }, (_, i) => ({
      operationId: `operation${i}`,
      summary: `Does thing number ${i} with a longer summary to fill the text`,
      tags: [],
    }));
    const groups = capabilitiesOf({
      llms: { title: "Weather Service", summary: "Forecasts for any city" },
      mcpTools: realTools("mcp-server-card/msc-alderpost.json"),
      openapi: { operations, tags: ["forecast"] },
    });
    const text = capabilitiesTextOf(groups);
    expect(text.length).toBeLessThanOrEqual(CAPABILITIES_TEXT_MAX);
    expect(text.length).toBeGreaterThan(CAPABILITIES_TEXT_MAX - 300);
    expect(groups?.find((group) => group.source === "mcp")?.items).toHaveLength(8);
    expect(text).toContain("Weather Service: Forecasts for any city");
    const kept = groups?.find((group) => group.source === "openapi")?.items.length ?? 0;
    expect(kept).toBeGreaterThan(5);
    expect(kept).toBeLessThan(40);
    // The text is exactly the groups' items, one a line.
    expect(text.split("\n")).toHaveLength(groups!.reduce((sum, group) => sum + group.items.length, 0));
  });

  it("one source alone takes the whole cap, and no more", () => {
    const operations = Array.from({ length: 500 }, (_, i) => ({ operationId: `op${i}`, summary: null, tags: [] }));
    const text = capabilitiesTextOf(capabilitiesOf({ openapi: { operations, tags: [] } }));
    expect(text.length).toBeLessThanOrEqual(CAPABILITIES_TEXT_MAX);
    expect(text.length).toBeGreaterThan(CAPABILITIES_TEXT_MAX - 10);
  });

  it("strip markup, entities, links and URLs, and cut names and descriptions", () => {
    const title = readLlmsTitle(text(CORPUS_2026, "llms-txt/llms-pkgdown-geovizr.txt"));
    if ("problem" in title) throw new Error(title.problem);
    expect(cleanCapabilityText(title.title, 80)).toBe("geovizr");
    expect(
      cleanCapabilityText("<b>Send</b> &amp; track **SMS** via [our API](https://x.example/docs) `now`", 200),
    ).toBe("Send & track SMS via our API now");
    const [long] = capabilitiesOf({
      agentSkills: [{ name: "n".repeat(200), description: "word ".repeat(100) }],
    })![0]!.items;
    expect(long!.name.length).toBeLessThanOrEqual(CAPABILITY_NAME_MAX);
    expect(long!.description!.length).toBeLessThanOrEqual(CAPABILITY_DESCRIPTION_MAX);
  });

  it("are none when the documents name nothing", () => {
    expect(capabilitiesOf({ mcpTools: [], ardEntries: [], openapi: { operations: [], tags: [] } })).toBeNull();
    expect(capabilitiesTextOf(null)).toBe("");
  });
});
