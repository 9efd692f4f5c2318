/**
 * What a site's own machine-readable documents say it does, as one bounded text (docs/discovery.md,
 * "What agents can do here"): the tools its MCP server lists (live tools/list), its OpenAPI
 * operations and tags, its A2A agent card's skills, its Agent Skills, its ARD / AI Catalog entries
 * (names, descriptions, capabilities, representative queries) and its llms.txt title and summary.
 *
 * Nothing is parsed here: each format's reader (src/domain/readers/, mcp-probe.ts,
 * detect-llms-txt.ts) has read it during the crawl, and this module only takes their readings,
 * cleans the text (markup, entities, links, URLs), drops repeats and cuts it to size.
 *
 * The cap: at most CAPABILITIES_TEXT_MAX (2,048) characters in all, each item's name at most 80
 * and its description at most 200, shared out one item per source in turn, so a source with
 * hundreds of operations cannot crowd out the MCP tools or the llms.txt summary; a source takes
 * what the others leave. The stored groups hold exactly the items the text holds.
 */
import { decodeHTML } from "entities";
import { CAPABILITIES_TEXT_MAX, type CapabilitySource, type StoredCapabilityGroup } from "../../../db/schema/sites.ts";
import { answerAt, type ChecklistAnswers } from "../checklist/checklist-answers.ts";
import type { CheckResult } from "../checklist/checklist-definition.ts";
import { readAgentCard } from "../readers/a2a-card.ts";
import { readSkillsIndex } from "../readers/agent-skills.ts";
import type { AiCatalogEntry } from "../readers/ard.ts";
import type { OpenApiOperation } from "../readers/openapi.ts";
import { isRecord, parseJson } from "../signals/blocking.ts";
import type { CrawlDiscovery } from "../signals/crawl-state.ts";
import type { McpToolSummary } from "../signals/mcp-probe.ts";
import type { SignalFinding } from "../signals/types.ts";
import type { SignalField } from "../sites/site-fields.ts";

export { CAPABILITIES_TEXT_MAX, type CapabilitySource };

/** The sources in the order their items are taken each round (and shown on the report). */
export const CAPABILITY_SOURCES: readonly CapabilitySource[] = [
  "llms-txt",
  "mcp",
  "a2a",
  "agent-skills",
  "ard",
  "openapi",
];

/** How the site report names each source. */
export const CAPABILITY_SOURCE_LABELS: Readonly<Record<CapabilitySource, string>> = {
  "llms-txt": "llms.txt",
  mcp: "MCP server tools (tools/list)",
  a2a: "A2A agent skills",
  "agent-skills": "Agent Skills",
  ard: "ARD / AI Catalog entries",
  openapi: "OpenAPI operations",
};

/** An item's name is cut to this many characters. */
export const CAPABILITY_NAME_MAX = 80;
/** An item's description is cut to this many characters. */
export const CAPABILITY_DESCRIPTION_MAX = 200;

export type CapabilityItem = StoredCapabilityGroup["items"][number];

/** What the crawl's readers read, per source: the input of capabilitiesOf. */
export interface CapabilityReadings {
  llms?: { title: string; summary: string | null } | null;
  mcpTools?: readonly McpToolSummary[];
  a2aSkills?: readonly { name: string; description: string | null; tags: readonly string[] }[];
  agentSkills?: readonly { name: string; description: string | null }[];
  ardEntries?: readonly Pick<
    AiCatalogEntry,
    "displayName" | "description" | "capabilities" | "representativeQueries"
  >[];
  openapi?: { operations: readonly OpenApiOperation[]; tags: readonly string[] } | null;
}

/** Markup and noise out of a text the site wrote: tags, entities, Markdown links and emphasis, URLs, control characters. */
export function cleanCapabilityText(value: string, max: number): string {
  const text = decodeHTML(value.replace(/<[^>]*>?/g, " "))
    .replace(/<[^>]*>?/g, " ")
    // An image says nothing of what the site does; a link's words do.
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\*\*|__|`+|^#+\s*/gm, "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f<>]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return cut(text, max);
}

/** At most `max` characters, at a word boundary when one is near. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.lastIndexOf(" ");
  return (space > max * 0.6 ? head.slice(0, space) : head).replace(/[\s,;:.-]+$/, "");
}

function item(name: string, ...descriptions: (string | null | undefined)[]): CapabilityItem | null {
  const cleanName = cleanCapabilityText(name, CAPABILITY_NAME_MAX);
  if (!cleanName) return null;
  const parts = descriptions
    .map((part) => (part ? cleanCapabilityText(part, CAPABILITY_DESCRIPTION_MAX) : ""))
    .filter((part) => part && part.toLowerCase() !== cleanName.toLowerCase());
  const joined = [...new Set(parts)].reduce(
    (text, part) => (text ? `${text}${/[.!?:;]$/.test(text) ? " " : ". "}${part}` : part),
    "",
  );
  const description = cut(joined, CAPABILITY_DESCRIPTION_MAX);
  return description ? { name: cleanName, description } : { name: cleanName };
}

/** Each source's items in the order its document gives them, before sharing out. */
function itemsBySource(readings: CapabilityReadings): Map<CapabilitySource, CapabilityItem[]> {
  const found = new Map<CapabilitySource, (CapabilityItem | null)[]>();
  if (readings.llms) found.set("llms-txt", [item(readings.llms.title, readings.llms.summary)]);
  found.set(
    "mcp",
    (readings.mcpTools ?? []).map((tool) => item(tool.name, tool.title, tool.description)),
  );
  found.set(
    "a2a",
    (readings.a2aSkills ?? []).map((skill) =>
      item(skill.name, skill.description, skill.tags.length ? skill.tags.join(", ") : null),
    ),
  );
  found.set(
    "agent-skills",
    (readings.agentSkills ?? []).map((skill) => item(skill.name, skill.description)),
  );
  const entries = readings.ardEntries ?? [];
  found.set("ard", [
    ...entries.map((entry) => (entry.displayName ? item(entry.displayName, entry.description) : null)),
    ...entries.flatMap((entry) => entry.capabilities.map((capability) => item(capability))),
    ...entries.flatMap((entry) => entry.representativeQueries.map((query) => item(query))),
  ]);
  const openapi = readings.openapi;
  if (openapi) {
    found.set("openapi", [
      openapi.tags.length ? item(openapi.tags.join(", ")) : null,
      ...openapi.operations.map((operation) =>
        operation.operationId ? item(operation.operationId, operation.summary) : item(operation.summary ?? ""),
      ),
    ]);
  }
  const bySource = new Map<CapabilitySource, CapabilityItem[]>();
  for (const source of CAPABILITY_SOURCES) {
    const seen = new Set<string>();
    const items = (found.get(source) ?? []).filter((each): each is CapabilityItem => {
      if (!each || seen.has(each.name.toLowerCase())) return false;
      seen.add(each.name.toLowerCase());
      return true;
    });
    if (items.length) bySource.set(source, items);
  }
  return bySource;
}

/** An item as one line of capabilities_text. */
export function capabilityLine(each: CapabilityItem): string {
  return each.description ? `${each.name}: ${each.description}` : each.name;
}

/**
 * The capabilities kept: each source's items taken one per source in turn while they fit in
 * CAPABILITIES_TEXT_MAX (a source whose next item does not fit is done), a repeat of an item
 * already taken from another source left out, and a bare name another source describes left out
 * too. Null when the documents name nothing.
 */
export function capabilitiesOf(readings: CapabilityReadings): StoredCapabilityGroup[] | null {
  const bySource = itemsBySource(readings);
  const described = new Set(
    [...bySource.values()].flat().flatMap((each) => (each.description ? [each.name.toLowerCase()] : [])),
  );
  const kept = new Map<CapabilitySource, CapabilityItem[]>();
  const lines = new Set<string>();
  const next = new Map<CapabilitySource, number>();
  let open = [...bySource.keys()];
  let used = 0;
  while (open.length > 0) {
    const stillOpen: CapabilitySource[] = [];
    for (const source of open) {
      const items = bySource.get(source)!;
      let index = next.get(source) ?? 0;
      // The next item that is not a repeat.
      while (index < items.length) {
        const candidate = items[index]!;
        const line = capabilityLine(candidate).toLowerCase();
        const redundant = !candidate.description && described.has(candidate.name.toLowerCase());
        if (!lines.has(line) && !redundant) break;
        index++;
      }
      if (index >= items.length) continue;
      const candidate = items[index]!;
      const line = capabilityLine(candidate);
      const cost = line.length + (used === 0 ? 0 : 1);
      if (used + cost > CAPABILITIES_TEXT_MAX) continue;
      used += cost;
      lines.add(line.toLowerCase());
      kept.set(source, [...(kept.get(source) ?? []), candidate]);
      next.set(source, index + 1);
      if (index + 1 < items.length) stillOpen.push(source);
    }
    open = stillOpen;
  }
  const groups = CAPABILITY_SOURCES.flatMap((source) => {
    const items = kept.get(source);
    return items ? [{ source, items }] : [];
  });
  return groups.length ? groups : null;
}

/** The text search reads (sites.capabilities_text): one item a line, in the report's order; "" for none. */
export function capabilitiesTextOf(groups: readonly StoredCapabilityGroup[] | null): string {
  const text = (groups ?? []).flatMap((group) => group.items.map(capabilityLine)).join("\n");
  // capabilitiesOf keeps the sum within the cap; this guards stored groups read back from elsewhere.
  return text.length <= CAPABILITIES_TEXT_MAX ? text : cut(text, CAPABILITIES_TEXT_MAX);
}

const passed = (check: CheckResult | undefined) => check !== undefined && ["pass", "warn"].includes(check.status);

/** The document a passing check read (its first evidence that answered 200), parsed. */
function documentOfCheck(answers: ChecklistAnswers, check: CheckResult | undefined): unknown {
  if (!passed(check)) return undefined;
  const url = check!.evidence.find((each) => each.status === 200)?.url;
  const answer = url ? answerAt(answers, url) : undefined;
  return answer?.ok ? parseJson(answer.body) : undefined;
}

const arrayOf = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/**
 * The readings of one crawl: the detectors' findings (MCP tools/list, OpenAPI, llms.txt), the AI
 * Catalog the discovery read, and the A2A card and Agent Skills index the checklist judged usable
 * (read by their readers from the answers those checks passed on). Only documents a detector
 * found present or a check passed count: a placeholder or the site's catch-all page says nothing.
 */
export function crawlCapabilityReadings(input: {
  signals: Record<SignalField, SignalFinding>;
  discovery: CrawlDiscovery;
  answers: ChecklistAnswers | null;
  checks: readonly CheckResult[] | null;
}): CapabilityReadings {
  const { signals, discovery, answers, checks } = input;
  const mcp = signals.has_mcp_server;
  const llms = signals.has_llms_txt;
  const openapi = signals.has_openapi;
  const catalog = discovery.aiCatalog?.status === "present" ? discovery.aiCatalog.catalog : null;
  const checkOf = (id: string) => checks?.find((check) => check.id === id);
  const card = answers ? documentOfCheck(answers, checkOf("a2a_agent_card")) : undefined;
  const cardReading = card === undefined ? null : readAgentCard(card);
  const skillsCheck = checkOf("agent_skills");
  const index = answers ? documentOfCheck(answers, skillsCheck) : undefined;
  const indexUrl = skillsCheck?.evidence.find((each) => each.status === 200)?.url ?? answers?.origin ?? "";
  const indexReading = index === undefined ? null : readSkillsIndex(index, indexUrl);
  return {
    llms:
      llms.status === "present" && typeof llms.details?.title === "string"
        ? {
            title: llms.details.title,
            summary: typeof llms.details.summary === "string" ? llms.details.summary : null,
          }
        : null,
    mcpTools: mcp.details?.outcome === "compliant" ? arrayOf<McpToolSummary>(mcp.details.tools) : [],
    a2aSkills: cardReading && "skills" in cardReading ? cardReading.skills : [],
    agentSkills: indexReading && "skills" in indexReading ? indexReading.skills : [],
    ardEntries: catalog?.reachable ?? [],
    openapi:
      openapi.status === "present" && isRecord(openapi.details)
        ? {
            operations: arrayOf<OpenApiOperation>(openapi.details.operations),
            tags: arrayOf<string>(openapi.details.tags),
          }
        : null,
  };
}
