/**
 * The service description every Worker serves (src/generated/, written by `npm run describe`) is
 * the one the groups' route definitions give: the descriptor's endpoint list and the OpenAPI
 * document. A route changed without regenerating fails here, naming the command to run.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { serviceDescriptionFiles } from "../../scripts/describe-service.ts";
import { createApp } from "../../src/app.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { describeService } from "../../src/routes/service-description.ts";
import { SERVICE_ENDPOINTS } from "../../src/routes/service-endpoints.ts";
import { SERVICE_OPENAPI_DOCUMENT } from "../../src/routes/service-openapi.ts";

const root = resolve(import.meta.dirname, "../..");
// Settings that parse; no request here reaches a store.
const BINDINGS = {
  DATABASE_URL: "postgres://unused:unused@127.0.0.1:9/unused",
  UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9",
  UPSTASH_REDIS_REST_TOKEN: "unused",
  RATE_LIMIT_KEY_SECRET: "unit-test-rate-limit-key-secret-0123456789",
};

describe("the generated service description", () => {
  it.each(Object.entries(serviceDescriptionFiles()))("%s is up to date (else: npm run describe)", (path, content) => {
    expect(readFileSync(resolve(root, path), "utf8"), `${path} is out of date: run npm run describe`).toBe(content);
  });

  it("is what the modules Workers import hold: every group's endpoints and document", () => {
    const built = describeService(createGroups());
    expect(SERVICE_ENDPOINTS).toEqual(built.endpoints);
    expect(SERVICE_OPENAPI_DOCUMENT).toEqual(built.openApi);
    expect(Object.keys(SERVICE_ENDPOINTS).length).toBeGreaterThan(20);
    expect(Object.keys(SERVICE_OPENAPI_DOCUMENT.paths ?? {})).toEqual(expect.arrayContaining(["/search", "/check"]));
  });

  it("describes the whole service from a Worker of one group: descriptor and OpenAPI document", async () => {
    const discoveryOnly = createApp(createGroups(["discovery"]), { endpoints: SERVICE_ENDPOINTS });
    const descriptor = (await (await discoveryOnly.request("http://svc.test/api/v1/", {}, BINDINGS)).json()) as {
      endpoints: Record<string, string>;
    };
    expect(descriptor.endpoints).toEqual(SERVICE_ENDPOINTS);
    // A group's own description is a part of the whole, never more.
    const own = describeService(createGroups(["provider"]));
    for (const [operation, line] of Object.entries(own.endpoints)) expect(SERVICE_ENDPOINTS[operation]).toBe(line);

    const webOnly = createApp(createGroups(["web"]), { endpoints: SERVICE_ENDPOINTS });
    const document = (await (await webOnly.request("http://svc.test/openapi.json", {}, BINDINGS)).json()) as {
      paths: Record<string, unknown>;
      servers: { url: string }[];
    };
    expect(Object.keys(document.paths).sort()).toEqual(Object.keys(SERVICE_OPENAPI_DOCUMENT.paths ?? {}).sort());
    expect(document.servers[0]?.url).toBe("http://svc.test/api/v1");
  });
});
