/**
 * The AI plugin manifest signal: /.well-known/ai-plugin.json (the format of the original ChatGPT
 * plugins). Present when it parses as a JSON object with string `schema_version`,
 * `name_for_human`, `name_for_model`, `description_for_human` and `description_for_model`, an
 * `auth` object with a `type`, and an `api` object with a `type` and a `url` that resolves to an
 * http(s) URL (relative to the manifest; `host:port/path` without a scheme takes the manifest's
 * scheme; a URL that opens with an unfilled template placeholder such as `$host` is refused). The
 * OpenAPI detector fetches the same URL to follow `api.url`. A manifest that is the site's catch-all
 * answer (see catch-all.ts) is none.
 *
 * The format is legacy: ChatGPT plugins were retired in April 2024. The signal stays (it is part
 * of the interface and the score), and every reason says so and what to publish instead.
 */
import {
  decideVerdict,
  isHtmlAnswer,
  isRecord,
  judgeProbe,
  type ProbeVerdict,
  parseJson,
  resolveHttpUrl,
  siteUrl,
  toSentence,
} from "./blocking.ts";
import { controlsOf, ruleOutCatchAll } from "./crawl-state.ts";
import { fetchRecord, type ProbeAnswer, type ProbeContext, type SignalFinding } from "./types.ts";

export const AI_PLUGIN_PATH = "/.well-known/ai-plugin.json";

const REQUIRED_STRINGS = [
  "schema_version",
  "name_for_human",
  "name_for_model",
  "description_for_human",
  "description_for_model",
] as const;

/**
 * A server-side template's placeholder where the host should be (`$host/…`, `${HOST}/…`,
 * `{{host}}/…`): the manifest was served before its template was filled in, and no client can
 * follow it.
 */
const UNFILLED_TEMPLATE = /^\s*(?:\$\{?[A-Za-z_]\w*\}?|\{\{[^}]*\}\})/;

/** `host:port/path` without a scheme, as OpenAI's plugin quickstart writes `localhost:5003/openapi.yaml`. */
const HOST_AND_PORT_WITHOUT_SCHEME = /^\s*[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?:\d{1,5}(?:[/?#]|$)/i;

/**
 * `api.url` made absolute. Relative references resolve against the manifest, as in any
 * document. A reference that opens with `host:port` is, by URL syntax, a URI whose scheme is the
 * host name ("localhost:"), which no client fetches; its author meant a host and port, so it is
 * read with the manifest's own scheme, as a scheme-relative `//host:port/…` would be. A
 * scheme-less `example.com/openapi.yaml` stays a relative path: that is a valid reading of it.
 */
function resolveApiUrl(reference: string, manifestUrl: string): string | null {
  if (HOST_AND_PORT_WITHOUT_SCHEME.test(reference)) return resolveHttpUrl(`//${reference.trim()}`, manifestUrl);
  return resolveHttpUrl(reference, manifestUrl);
}

/** What a manifest body holds, as far as it could be read. */
export interface AiPluginManifest {
  /** Every rule the manifest breaks; empty when it is valid. */
  problems: string[];
  /** `api.url` made absolute against the manifest's URL, when it is an http(s) URL. */
  apiUrl: string | null;
  nameForHuman: string | null;
}

/** Reads a manifest body; null when it is not a JSON object at all. */
export function readAiPluginManifest(body: string, manifestUrl: string): AiPluginManifest | null {
  const manifest = parseJson(body);
  if (!isRecord(manifest)) return null;
  const problems: string[] = [];
  for (const field of REQUIRED_STRINGS) {
    if (typeof manifest[field] !== "string") problems.push(`${field} is missing or not a string`);
  }
  const auth = manifest.auth;
  if (!isRecord(auth) || typeof auth.type !== "string") problems.push("auth has no type");
  const api = manifest.api;
  let apiUrl: string | null = null;
  if (!isRecord(api) || typeof api.type !== "string") problems.push("api has no type");
  const rawApiUrl = isRecord(api) && typeof api.url === "string" ? api.url : null;
  if (rawApiUrl !== null && UNFILLED_TEMPLATE.test(rawApiUrl)) {
    problems.push(`api.url "${rawApiUrl.slice(0, 80)}" starts with a template placeholder that was never filled in`);
  } else {
    if (rawApiUrl !== null) apiUrl = resolveApiUrl(rawApiUrl, manifestUrl);
    if (apiUrl === null) problems.push("api.url is missing or not an http(s) URL");
  }
  const nameForHuman = typeof manifest.name_for_human === "string" ? manifest.name_for_human : null;
  return { problems, apiUrl, nameForHuman };
}

interface PluginVerdict extends ProbeVerdict {
  manifest?: AiPluginManifest;
}

function judgeManifestAnswer(answer: ProbeAnswer, where: string): PluginVerdict {
  if (answer.status !== 200) return { status: "absent", reason: `${where} answered ${answer.status}, not 200` };
  if (isHtmlAnswer(answer)) return { status: "absent", reason: `${where} answered 200 with an HTML page (a soft 404)` };
  const manifest = readAiPluginManifest(answer.body, answer.finalUrl || answer.url);
  if (!manifest) return { status: "absent", reason: `${where} is not a JSON object` };
  if (manifest.problems.length > 0) {
    return { status: "absent", reason: `${where} is not a valid plugin manifest: ${manifest.problems.join(", ")}` };
  }
  return { status: "present", reason: `AI plugin manifest found at ${where}`, manifest };
}

/**
 * Said with every verdict: the format is legacy, and what replaced it. OpenAI retired ChatGPT
 * plugins in April 2024 (new conversations with plugins ended on 19 March 2024, existing ones on
 * 9 April 2024) in favour of GPTs and actions; agents today find tools through MCP servers,
 * OpenAPI documents and AI Catalogs.
 */
export const AI_PLUGIN_LEGACY_NOTE =
  "ChatGPT plugins were retired in April 2024, so this manifest is legacy: publish an MCP server, an OpenAPI document or an AI Catalog (/.well-known/ai-catalog.json) for agents instead";

/** Detects the AI plugin manifest (see the module comment). */
export async function detectAiPlugin(context: ProbeContext): Promise<SignalFinding> {
  const response = await context.fetch(siteUrl(context.origin, AI_PLUGIN_PATH));
  const checked = await ruleOutCatchAll(
    context,
    response,
    judgeProbe(response, context.origin, judgeManifestAnswer) as PluginVerdict,
  );
  const judged: PluginVerdict = checked.verdict;
  const verdict = decideVerdict([judged]);
  const finding: SignalFinding = {
    status: verdict.status,
    reason: `${verdict.reason} ${toSentence(AI_PLUGIN_LEGACY_NOTE)}`,
    fetched: [response, ...controlsOf([checked])].map(fetchRecord),
  };
  if (judged.status === "present" && judged.manifest) {
    finding.details = { api_url: judged.manifest.apiUrl, name_for_human: judged.manifest.nameForHuman };
  }
  return finding;
}
