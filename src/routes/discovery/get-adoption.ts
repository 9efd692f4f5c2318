import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { accepts } from "hono/accepts";
import {
  ADOPTION_CACHE_SECONDS,
  ADOPTION_DEFAULT_DAYS,
  ADOPTION_KINDS,
  ADOPTION_MAX_DAYS,
  adoptionCsv,
  adoptionFigures,
} from "../../domain/stats/adoption-figures.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";
import { categoryParam, integerParam } from "../shared/site-schemas.ts";

export const AdoptionQuerySchema = z.strictObject({
  days: integerParam(1, ADOPTION_MAX_DAYS, `How many UTC days back, today included, default ${ADOPTION_DEFAULT_DAYS}`),
  category: categoryParam.openapi({ description: "Only this category's figures; without it, every category together" }),
});

/** The JSON route's parameters: the CSV's, and `format` to ask for CSV without a header. */
export const AdoptionFormatQuerySchema = AdoptionQuerySchema.extend({
  format: z
    .enum(["json", "csv"])
    .optional()
    .openapi({ description: "json (the default) or csv; without it, the Accept header decides (text/csv gives CSV)" }),
});

/**
 * Which representation a request of /stats/adoption gets: `format` when given (a bad one is left
 * to validation, which refuses it), else CSV when the Accept header prefers text/csv to JSON.
 */
export function adoptionFormat(c: Context<AppEnv>): "json" | "csv" {
  const format = c.req.query("format");
  if (format === "csv" || format === "json") return format;
  return accepts(c, { header: "Accept", supports: ["application/json", "text/csv"], default: "application/json" }) ===
    "text/csv"
    ? "csv"
    : "json";
}

/** The domain input of the adoption figures from validated parameters (JSON and CSV alike). */
export function toAdoptionInput(query: z.output<typeof AdoptionQuerySchema>) {
  return { days: query.days ?? ADOPTION_DEFAULT_DAYS, category: query.category };
}

const AdoptionRowSchema = z.object({
  day: z.iso.date(),
  category: z.string().openapi({ description: "The category, or '' for every category together" }),
  item: z.string().openapi({
    description:
      "A signal's Site field name (has_llms_txt, …), a checklist check id, or a class of MCP endpoint health: mcp_endpoint_handshake, mcp_endpoint_auth_gated, mcp_endpoint_not_mcp, mcp_endpoint_unreachable",
  }),
  kind: z.enum(ADOPTION_KINDS).openapi({
    description:
      "signal, check, or mcp_endpoint (how the MCP endpoints sites advertise answered the crawl's handshake)",
  }),
  sites: z.number().int().min(0).openapi({
    description:
      "Sites counted: every indexed site for a signal; sites whose latest checklist has the check for a check; sites that advertise an MCP endpoint (an AI Catalog, server card, discovery document or MCP Registry entry names one) for mcp_endpoint",
  }),
  with_item: z.number().int().min(0).openapi({
    description:
      "Of them, sites with the signal, whose check passed (warn is not counted), or whose advertised endpoint answered in that class",
  }),
  share: z.number().min(0).max(1).openapi({ description: "with_item / sites, 4 decimals; 0 when sites is 0" }),
});

export const AdoptionResponseSchema = z
  .object({
    category: z.string().nullable(),
    days: z.number().int().min(1).max(ADOPTION_MAX_DAYS),
    from: z.iso.date().nullable(),
    to: z.iso.date().nullable(),
    rows: z.array(AdoptionRowSchema),
  })
  .openapi("AdoptionFigures");

export const getAdoptionRoute = createRoute({
  method: "get",
  path: "/stats/adoption",
  operationId: "getAdoptionFigures",
  tags: ["discovery"],
  summary: "Daily adoption of each signal and checklist check, cached 5 minutes per parameter set",
  description:
    "The daily rollups of the last `days` UTC days (1 to 365, default 90, today included), over every category or one `category`: per day and item, the sites counted, those with the item and the share. A signal counts every indexed site; a check counts the sites whose latest checklist has it, adopted only at `pass`; MCP endpoint health (kind `mcp_endpoint`) counts, among the sites that advertise an MCP endpoint, those whose endpoint completed a handshake, was auth-gated, answered HTTP but not as MCP, or was unreachable. Rows by day, then signals, checks and MCP endpoint health. As CSV with `format=csv`, `Accept: text/csv`, or at `/stats/adoption.csv`.",
  security: [],
  request: { query: AdoptionFormatQuerySchema },
  responses: {
    200: {
      description: "Adoption figures; as CSV (the columns of /stats/adoption.csv) with format=csv or Accept: text/csv",
      headers: { Vary: { schema: { type: "string" }, description: "Accept: the representation follows it" } },
      content: {
        "application/json": { schema: AdoptionResponseSchema },
        "text/csv": { schema: z.string().openapi({ example: "day,category,item,sites,with_item,share\r\n" }) },
      },
    },
    ...problemResponses(400, 503),
  },
});

export function registerGetAdoption(app: OpenAPIHono<AppEnv>) {
  app.openapi(getAdoptionRoute, async (c) => {
    const { cacheHit, ...figures } = await adoptionFigures({
      ctx: c.var.deps,
      input: toAdoptionInput(c.req.valid("query")),
    });
    c.header("X-Cache", cacheHit ? "HIT" : "MISS");
    c.header("Cache-Control", `public, max-age=${ADOPTION_CACHE_SECONDS}`);
    c.header("Vary", "Accept");
    if (adoptionFormat(c) === "csv") {
      c.header("Content-Disposition", 'attachment; filename="adoption.csv"');
      return c.body(adoptionCsv(figures.rows), 200, { "Content-Type": "text/csv; charset=utf-8" });
    }
    return c.json(figures, 200);
  });
}
