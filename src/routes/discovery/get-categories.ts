import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CATEGORIES_CACHE_SECONDS, listCategories } from "../../domain/sites/list-categories.ts";
import { CATEGORIES } from "../../domain/sites/site-fields.ts";
import type { AppEnv } from "../../http/context.ts";

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
  responses: {
    200: { description: "Categories", content: { "application/json": { schema: CategoriesResponseSchema } } },
  },
});

export function registerGetCategories(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCategoriesRoute, async (c) => {
    const body = await listCategories({ ctx: c.var.deps });
    c.header("Cache-Control", `public, max-age=${CATEGORIES_CACHE_SECONDS / 5}`);
    return c.json(body, 200);
  });
}
