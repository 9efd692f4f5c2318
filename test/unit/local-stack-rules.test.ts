import { describe, expect, it } from "vitest";
import { beginStatement } from "../../scripts/local-stack/sql-backends.ts";
import { adaptScript } from "../../scripts/local-stack/upstash-rest.ts";

describe("adaptScript", () => {
  const body = "local k = KEYS[1]\nreturn k";

  it("drops Upstash's allow-key-locking flag, keeping line numbers", () => {
    expect(adaptScript(`#!lua flags=allow-key-locking\n${body}`, true)).toBe(`\n${body}`);
    expect(adaptScript(`#!lua flags=allow-key-locking\n${body}`, false)).toBe(`\n${body}`);
  });

  it("keeps flags Redis knows when the store understands shebangs", () => {
    expect(adaptScript(`#!lua flags=no-writes,allow-key-locking\n${body}`, true)).toBe(
      `#!lua flags=no-writes\n${body}`,
    );
    expect(adaptScript(`#!lua flags=no-writes\n${body}`, false)).toBe(`\n${body}`);
  });

  it("leaves scripts without a shebang alone", () => {
    expect(adaptScript(body, true)).toBe(body);
  });
});

describe("beginStatement", () => {
  it("maps Neon's batch headers onto BEGIN", () => {
    expect(beginStatement({})).toBe("BEGIN");
    expect(beginStatement({ isolationLevel: "Serializable", readOnly: true, deferrable: true })).toBe(
      "BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY, DEFERRABLE",
    );
    expect(() => beginStatement({ isolationLevel: "Chaos" })).toThrow(/unknown isolation level/);
  });
});
