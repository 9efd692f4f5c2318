/**
 * The command-line readiness checker: the crawl and the verdicts of POST /check (the same domain
 * code: crawlCheckTarget and checkResultOf), run on the site owner's own machine or, with --api,
 * by the service. Runs as `npm run readiness -- <url>` or through the package's bin
 * (bin/agent-readiness.mjs). docs/readiness-cli.md is the manual.
 *
 * Exit status: 0 every gate passed, 1 a gate failed, 2 the site could not be checked (or the
 * command line was wrong).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createLocalOutbound } from "../src/adapters/outbound/local-outbound.ts";
import { checkResultOf, crawlCheckTarget, type LiveCheckContext } from "../src/domain/checks/check-site.ts";
import { DomainError } from "../src/domain/errors.ts";
import type { CheckBody } from "./readiness/check-body.ts";
import { type Comparison, compareWithIndex } from "./readiness/compare.ts";
import {
  EXIT_NOT_CHECKED,
  EXIT_PASS,
  evaluateGates,
  type GateSettings,
  unknownRequirements,
} from "./readiness/gates.ts";
import { createProgress, type ProgressStream } from "./readiness/progress.ts";
import { renderMarkdown, renderNotCheckedMarkdown, renderText } from "./readiness/render.ts";
import { checkThroughService, normalizeBase, readIndexedSite, ServiceError } from "./readiness/service.ts";

export const USAGE = `usage: agent-readiness <url> [options]
       npm run readiness -- <url> [options]

Checks a site's readiness for AI agents: the score, the seven signals and the checklist, with the
crawl and the verdicts of the service's POST /check. It crawls from this machine (so a preview or
localhost can be checked), or through the service with --api. A <url> without a scheme is an
https address, as in the web form: example.com checks https://example.com/.

Output (stdout):
  (default)               a readable report
  --json                  the POST /check body, as JSON
  --markdown              a pull-request comment / job summary
  --json-file <path>      also write the POST /check body to <path>

Gates (exit 0 pass, 1 a gate failed, 2 could not check):
  --fail-under <score>    fail when the score (0-100) is under <score>
  --require <names>       fail unless each is present (signals: has_llms_txt, has_ai_plugin,
                          has_openapi, has_structured_api, has_mcp_server, has_robots_ai,
                          has_schema_org) or passes (checklist ids: robots_txt, llms_txt, …);
                          separated by commas or spaces, or repeated

The service:
  --api <base_url>        check through the service's POST /check (e.g. https://host/api/v1);
                          a priority key is read from READINESS_API_KEY, never from the command line
  --local                 crawl from this machine even with --api (for --compare)
  --compare <domain>      show what changed since the index's last crawl of <domain> (needs --api)

  --progress / --no-progress   the progress line on stderr (default: only on a terminal)
  -h, --help`;

/** What the checker runs with: its arguments, environment and streams, and injectable network edges for tests. */
export interface ReadinessIo {
  argv: string[];
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: ProgressStream;
  /** The fetch used for the service's endpoints. */
  fetchImpl?: typeof fetch;
  /** The outbound side of a local crawl; the system's resolver and Node's fetch unless given. */
  localOutbound?: (url: string) => LiveCheckContext;
}

interface Options {
  url: string;
  format: "text" | "json" | "markdown";
  jsonFile?: string;
  gates: GateSettings;
  api?: string;
  local: boolean;
  compare?: string;
  progress?: boolean;
}

/** A command line that does not fit: exit 2 with the usage. */
class UsageError extends Error {}

/** Parses the command line; throws UsageError when it does not fit. */
export function parseReadinessArgs(argv: string[]): Options | "help" {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTION_SPEC; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTION_SPEC, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? "name the URL to check" : `one URL only, not ${positionals.join(" ")}`,
    );
  }
  if (values.json && values.markdown) throw new UsageError("--json and --markdown are two outputs: choose one");
  let failUnder: number | undefined;
  if (values["fail-under"] !== undefined) {
    const text = values["fail-under"].trim();
    failUnder = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
    if (!(failUnder >= 0 && failUnder <= 100)) {
      throw new UsageError(`--fail-under takes a score from 0 to 100, not ${values["fail-under"]}`);
    }
  }
  const require = (values.require ?? [])
    .flatMap((value) => value.split(/[\s,]+/))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = unknownRequirements(require);
  if (unknown.length > 0) {
    throw new UsageError(
      `--require takes signal names (has_llms_txt…) and checklist ids (robots_txt…); unknown: ${unknown.join(", ")}`,
    );
  }
  if (values.compare !== undefined && values.api === undefined) {
    throw new UsageError("--compare reads the index through the service: name it with --api <base_url>");
  }
  if (values.local && values.api === undefined) throw new UsageError("--local only means something beside --api");
  if (values.progress && values["no-progress"]) throw new UsageError("--progress or --no-progress, not both");
  return {
    url: urlOfArgument(positionals[0]!),
    format: values.json ? "json" : values.markdown ? "markdown" : "text",
    ...(values["json-file"] ? { jsonFile: values["json-file"] } : {}),
    gates: { ...(failUnder !== undefined ? { failUnder } : {}), require },
    ...(values.api !== undefined ? { api: values.api } : {}),
    local: values.local === true,
    ...(values.compare !== undefined ? { compare: compareDomain(values.compare) } : {}),
    ...(values.progress ? { progress: true } : values["no-progress"] ? { progress: false } : {}),
  };
}

const OPTION_SPEC = {
  json: { type: "boolean" },
  markdown: { type: "boolean" },
  "json-file": { type: "string" },
  "fail-under": { type: "string" },
  require: { type: "string", multiple: true },
  api: { type: "string" },
  local: { type: "boolean" },
  compare: { type: "string" },
  progress: { type: "boolean" },
  "no-progress": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * The URL to check, read as the web form reads it: a name without a scheme is an https address
 * (`example.com` → `https://example.com/`, `example.com/pricing` keeps its path). An argument that
 * names a scheme, or that is no URL even with https:// in front, is left as typed, so the check
 * refuses it with its own words.
 */
export function urlOfArgument(argument: string): string {
  const typed = argument.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(typed) || typed.startsWith("//")) return typed;
  // "mailto:x" names a scheme; "example.com:8443" is a host and a port.
  if (/^[a-z][a-z0-9+.-]*:/i.test(typed) && !/^[^:/?#]+:\d*(?:[/?#]|$)/.test(typed)) return typed;
  try {
    return new URL(`https://${typed}`).href;
  } catch {
    return typed;
  }
}

/** The index's key of a domain given as a name or a URL: its host, lower-case. */
function compareDomain(value: string): string {
  const text = value.trim();
  try {
    if (/^https?:\/\//i.test(text)) return new URL(text).host;
  } catch {
    // Not a URL after all: taken as a name below.
  }
  const domain = text.toLowerCase().replace(/\.$/, "");
  if (!/^[a-z0-9.[\]:-]+$/.test(domain)) throw new UsageError(`--compare takes a domain, not ${value}`);
  return domain;
}

/** Runs the checker; the exit status. */
export async function runReadiness(io: ReadinessIo): Promise<number> {
  let options: Options | "help";
  try {
    options = parseReadinessArgs(io.argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`agent-readiness: ${error.message}\n\n${USAGE}\n`);
    return EXIT_NOT_CHECKED;
  }
  if (options === "help") {
    io.stdout.write(`${USAGE}\n`);
    return EXIT_PASS;
  }
  const base = options.api === undefined ? undefined : safeBase(options.api);
  if (base instanceof ServiceError) return notChecked(io, options, base.message);
  const remote = base !== undefined && !options.local;
  const progress = createProgress({
    stream: io.stderr,
    enabled: options.progress ?? io.stderr.isTTY === true,
    label: remote ? `checking ${options.url} through ${base}` : `checking ${options.url}`,
  });

  let body: CheckBody;
  let comparison: Comparison | undefined;
  try {
    const indexRead =
      options.compare !== undefined && base !== undefined
        ? readIndexedSite({ base, domain: options.compare, fetchImpl: io.fetchImpl })
        : undefined;
    // Settled at once so a failed index read never goes unobserved while the crawl runs.
    indexRead?.catch(() => undefined);
    if (remote) {
      body = (
        await checkThroughService({ base, url: options.url, apiKey: io.env.READINESS_API_KEY, fetchImpl: io.fetchImpl })
      ).body;
    } else {
      const outbound = (
        io.localOutbound ??
        ((url) => createLocalOutbound({ url, ...(io.env.DOH_URL ? { dohUrl: io.env.DOH_URL } : {}) }))
      )(options.url);
      const { target, crawl } = await crawlCheckTarget({
        ctx: { ...outbound, openFetcher: progress.counting(outbound.openFetcher) },
        input: { url: options.url },
      });
      const indexed = indexRead ? (await indexRead) !== null && options.compare === target.domain : false;
      // Nothing is queued from here: only the service's own check asks for a recrawl.
      body = checkResultOf(target, crawl, { indexed, recrawlQueued: false });
    }
    if (indexRead && options.compare !== undefined)
      comparison = compareWithIndex(options.compare, await indexRead, body);
  } catch (error) {
    progress.stop();
    if (error instanceof DomainError) return notChecked(io, options, `the URL was refused: ${error.message}`);
    if (error instanceof ServiceError) {
      const hint =
        remote && /URL_NOT_ALLOWED/.test(error.message)
          ? " (the service reaches public sites only: add --local to crawl from this machine)"
          : "";
      return notChecked(io, options, `${error.message}${hint}`);
    }
    throw error;
  }
  progress.stop();

  const gates = evaluateGates(body, options.gates);
  const json = `${JSON.stringify(body, null, 2)}\n`;
  if (options.jsonFile) writeFileSync(options.jsonFile, json);
  const report = { body, gates, ...(comparison ? { comparison } : {}), checkedBy: remote ? base : "this machine" };
  if (options.format === "json") {
    io.stdout.write(json);
    // The body alone is on stdout; the gates' verdict is said where a person sees it.
    if (gates.notChecked) io.stderr.write(`agent-readiness: ${gates.notChecked}\n`);
    for (const gate of gates.outcomes) {
      if (gate.outcome !== "passed")
        io.stderr.write(`agent-readiness: ${gate.gate} ${gate.outcome}: ${gate.message}\n`);
    }
  } else {
    io.stdout.write(options.format === "markdown" ? renderMarkdown(report) : renderText(report));
  }
  return gates.exitCode;
}

function safeBase(api: string): string | ServiceError {
  try {
    return normalizeBase(api);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
}

/** Exit 2 with the reason: on stderr, and as the whole report in Markdown (a job summary says why). */
function notChecked(io: ReadinessIo, options: Options, reason: string): number {
  io.stderr.write(`agent-readiness: ${reason}\n`);
  if (options.format === "markdown") io.stdout.write(renderNotCheckedMarkdown(options.url, reason));
  return EXIT_NOT_CHECKED;
}

/** The checker as a process: arguments from argv, the exit status set when it is done. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  try {
    process.exitCode = await runReadiness({ argv, env: process.env, stdout: process.stdout, stderr: process.stderr });
  } catch (error) {
    process.stderr.write(`agent-readiness: the check failed unexpectedly: ${(error as Error).stack ?? error}\n`);
    process.exitCode = EXIT_NOT_CHECKED;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
