/** Turns a failed zod validation into the one problem shape, naming each offending field. */
import type { Hook } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import type { AppEnv } from "./context.ts";
import { type FieldError, validationProblem } from "./problem.ts";

const LOCATIONS: Record<string, FieldError["location"]> = {
  query: "query",
  param: "path",
  header: "header",
  json: "body",
  form: "body",
};

export function fieldErrors(error: ZodError, target: string): FieldError[] {
  const location = LOCATIONS[target] ?? "body";
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const what = location === "query" ? "unknown parameter" : "unknown field";
      return { location, field: issue.keys.join(", "), message: `${what}, not accepted` };
    }
    return { location, field: issue.path.map(String).join("."), message: issue.message };
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the hook serves every route's schemas
export const validationHook: Hook<any, AppEnv, any, any> = (result) => {
  if (!result.success) throw validationProblem(fieldErrors(result.error as ZodError, result.target));
};
