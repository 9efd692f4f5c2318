import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { ADOPTION_CACHE_SECONDS, adoptionCsv, adoptionFigures } from "../../domain/stats/adoption-figures.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";
import { AdoptionQuerySchema, toAdoptionInput } from "./get-adoption.ts";

export const getAdoptionCsvRoute = createRoute({
  method: "get",
  path: "/stats/adoption.csv",
  operationId: "getAdoptionFiguresCsv",
  tags: ["discovery"],
  summary: "The adoption figures as CSV",
  description:
    "The rows of `/stats/adoption` with the same parameters, as RFC 4180 CSV with a header line and the columns day,category,item,sites,with_item,share in that order (category '' for every category together).",
  security: [],
  request: { query: AdoptionQuerySchema },
  responses: {
    200: {
      description: "Adoption figures as CSV",
      content: {
        "text/csv": { schema: z.string().openapi({ example: "day,category,item,sites,with_item,share\r\n" }) },
      },
    },
    ...problemResponses(400, 503),
  },
});

export function registerGetAdoptionCsv(app: OpenAPIHono<AppEnv>) {
  app.openapi(getAdoptionCsvRoute, async (c) => {
    const { cacheHit, rows } = await adoptionFigures({ ctx: c.var.deps, input: toAdoptionInput(c.req.valid("query")) });
    c.header("X-Cache", cacheHit ? "HIT" : "MISS");
    c.header("Cache-Control", `public, max-age=${ADOPTION_CACHE_SECONDS}`);
    c.header("Content-Disposition", 'attachment; filename="adoption.csv"');
    return c.body(adoptionCsv(rows), 200, { "Content-Type": "text/csv; charset=utf-8" });
  });
}
