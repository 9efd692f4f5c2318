/**
 * The MCP server's prompts: the two jobs agents most often bring to the service, written as the
 * instructions a model needs to do them with this server's tools. A prompt only writes a message;
 * nothing runs until the model calls the tools it names.
 */
import {
  type GetPromptResult,
  type Prompt,
  type PromptArgument,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";

/** One prompt as prompts/list shows it, and how prompts/get builds its messages. */
export interface McpPrompt extends Prompt {
  arguments: PromptArgument[];
  build(args: Record<string, string>): GetPromptResult;
}

/** The longest argument a prompt takes: an argument is a request, not a document. */
const MAX_ARGUMENT_LENGTH = 500;

/** The named argument, trimmed; -32602 when a required one is missing, empty or too long. */
function readArgument(prompt: string, args: Record<string, string>, name: string): string {
  const value = typeof args[name] === "string" ? args[name].trim() : "";
  if (value === "") {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid params: prompt ${prompt} needs the argument ${name}`,
    );
  }
  if (value.length > MAX_ARGUMENT_LENGTH) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid params: argument ${name} must be at most ${MAX_ARGUMENT_LENGTH} characters`,
    );
  }
  return value;
}

const userMessage = (text: string): GetPromptResult["messages"][number] => ({
  role: "user",
  content: { type: "text", text },
});

export const MCP_PROMPTS: McpPrompt[] = [
  {
    name: "find_service",
    title: "Find a service that can …",
    description:
      "Find indexed services (APIs, MCP servers, sites) that can do a task, best agent readiness first, and say how an agent would use each.",
    arguments: [
      {
        name: "task",
        description: "What the service should do, in a few words (e.g. 'send invoices').",
        required: true,
      },
      {
        name: "needs",
        description: "Optional: what the agent needs from it, e.g. 'an MCP server' or 'an OpenAPI document'.",
        required: false,
      },
    ],
    build(args) {
      const task = readArgument("find_service", args, "task");
      const needs = typeof args.needs === "string" && args.needs.trim() !== "" ? args.needs.trim() : undefined;
      return {
        description: `Find a service that can ${task}`,
        messages: [
          userMessage(
            [
              `Find a service that can ${task}.`,
              needs ? `It must offer ${needs}.` : "",
              "Use search_sites with the task as q, in its own words (set has_mcp, has_openapi or has_api when a kind of interface is needed, and min_score to drop poorly ready sites); try other words if nothing fits.",
              "For the two or three best results call get_site with the domain and the search's search_id, and read their signals and checklist.",
              "Answer with each candidate's domain, what it does, its agentic_score, and how an agent would connect to it (its MCP endpoint, OpenAPI document or API), citing the evidence. Results are organic: do not describe any as sponsored.",
              "Do not call record_action_interest unless I explicitly ask to act on one of them.",
            ]
              .filter((line) => line !== "")
              .join(" "),
          ),
        ],
      };
    },
  },
  {
    name: "check_my_site",
    title: "Check my site and tell me what to fix",
    description:
      "Check a site live for agent readiness and list what to fix, most valuable first, with the fix for each failing check.",
    arguments: [{ name: "url", description: "The site to check: a URL or a bare host name.", required: true }],
    build(args) {
      const url = readArgument("check_my_site", args, "url");
      return {
        description: `Check ${url} and say what to fix`,
        messages: [
          userMessage(
            [
              `Check my site ${url} and tell me what to fix.`,
              "Call check_site with that url. From its result, list the checks whose status is fail or warn and that apply to my kind of site, grouped by category, the ones that raise agentic_score first (missing signals), each with what was seen (reason, evidence) and the fix, with its example.",
              "Say which checks could not be decided (status error) and why, separately from failures, and which are neutral for my kind of site.",
              "If an MCP endpoint is involved, verify it with verify_mcp. End with the current agentic_score and what it would be once the signals are fixed.",
            ].join(" "),
          ),
        ],
      };
    },
  },
];
