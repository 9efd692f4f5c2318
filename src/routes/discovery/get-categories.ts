import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CATEGORIES_CACHE_SECONDS, listCategories } from "../../domain/sites/list-categories.ts";
import { CATEGORIES } from "../../domain/sites/site-fields.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";

export const CategoriesResponseSchema = z
  .object({
    categories: z.array(z.object({ name: z.enum(CATEGORIES), count: z.number().int().min(0) })),
  })
  .openapi("Categories");

export const getCategoriesRoute = createRoute({
  method: "get",
  path: "/categories",
  operationId: "listCategories",
  tags: ["discovery"],
  summary: "The discovery categories and their site counts (audit-only buckets not listed)",
  description:
    "The 12 discovery categories in the interface's order, each with how many sites it holds (empty ones included); the audit-only buckets other and spam are not listed. Cached 5 minutes.",
  // Public: the spec's Authentication lists it under "none".
  security: [],
  responses: {
    200: { description: "Categories", content: { "application/json": { schema: CategoriesResponseSchema } } },
    ...problemResponses(503),
  },
});

export function registerGetCategories(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCategoriesRoute, async (c) => {
    const body = await listCategories({ ctx: c.var.deps });
    c.header("Cache-Control", `public, max-age=${CATEGORIES_CACHE_SECONDS / 5}`);
    return c.json(body, 200);
  });
}
