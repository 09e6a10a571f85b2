import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { errorOf } from "../../test/support/input-error.ts";
import type { BenchgateConfig } from "./config.gen.ts";
import { configPaths, relativePathProblem } from "./config-paths.ts";
import { validateConfig } from "./validate-document.ts";
import { docsUrl } from "../version.ts";

const SOURCE = "benchgate.yml";

/** A config with every path-valued key set: `key` (or every key) to `value`, the rest inside. */
function everyPath(value: string, key?: string): unknown {
  const at = (pointer: string, inside: string): string =>
    key === undefined || key === pointer ? value : inside;
  return {
    version: 1,
    suites: [
      {
        name: "c",
        kind: "criterion",
        bench: "b",
        "manifest-path": at("/suites/0/manifest-path", "crates/a/Cargo.toml"),
      },
      { name: "h", kind: "hyperfine", commands: [{ name: "x", command: "true" }] },
      {
        name: "u",
        kind: "custom",
        command: ["h", "{out}"],
        output: at("/suites/2/output", "s.json"),
      },
      {
        name: "g",
        kind: "gungraun",
        bench: "b",
        "manifest-path": at("/suites/3/manifest-path", "crates/g/Cargo.toml"),
      },
      {
        name: "d",
        kind: "divan",
        bench: "b",
        "manifest-path": at("/suites/4/manifest-path", "crates/d/Cargo.toml"),
      },
    ],
    golden: {
      checksums: at("/golden/checksums", "sums.sha256"),
      outputs: at("/golden/outputs", "golden"),
      commands: [{ name: "x", command: ["true"] }],
    },
  };
}

describe("relativePathProblem: the one path rule of benchgate.yml", () => {
  it.each([
    ["../../etc/x", 'it has a ".." part'],
    ["a/../../b", 'it has a ".." part'],
    ["a/./../b", 'it has a ".." part'],
    ["..", 'it has a ".." part'],
    ["/etc/passwd", "it is absolute"],
    ["C:/x", "it is absolute"],
    ["c:x", "it is absolute"],
    ["a\\..\\b", 'it contains a backslash (separate folders with "/")'],
    ["a\u0000b", "it contains a control character"],
    ["a\nb", "it contains a control character"],
    [".", "it names the folder itself"],
    ["./", "it names the folder itself"],
    ["", "it is empty"],
  ])("%j is refused: %s", (raw, problem) => {
    expect(relativePathProblem(raw)).toBe(problem);
  });

  it.each(["checksums.sha256", "baselines/sums..sha256", "./a/b", "a//b", "..x/y..", "a/.b"])(
    "%j is a path inside its base",
    (raw) => {
      expect(relativePathProblem(raw)).toBeUndefined();
    },
  );
});

describe("validateConfig applies the path rule to every path-valued key", () => {
  it("accepts paths inside their base", () => {
    expect(() => validateConfig(everyPath("ok/Cargo.toml"), SOURCE)).not.toThrow();
  });

  it.each(["/golden/checksums", "/golden/outputs", "/suites/2/output"])(
    "%s with a '..' part is refused at validation, naming the key",
    (key) => {
      // Before, only the schema ran here: `validate` passed, and `run` joined a custom output
      // like ../../../../etc/passwd to {out} without a check.
      const error = errorOf(() => validateConfig(everyPath("../../../../etc/passwd", key), SOURCE));
      expect(error.describe()).toBe(
        `benchgate.yml: ${key}: "../../../../etc/passwd" must be a relative path inside ${key.endsWith("output") ? "{out}" : "the repository"}, without ".." parts: it has a ".." part`,
      );
    },
  );

  it.each(["/suites/0/manifest-path", "/suites/3/manifest-path", "/suites/4/manifest-path"])(
    "refuses a manifest-path outside the repository (%s)",
    (pointer) => {
      const error = errorOf(() => validateConfig(everyPath("../x/Cargo.toml", pointer), SOURCE));
      expect(error.jsonPath).toBe(pointer);
    },
  );

  it("knows every key the schema describes as a path (add new ones to configPaths)", () => {
    const schema = JSON.parse(
      readFileSync(new URL("../../../schemas/config.v1.schema.json", import.meta.url), "utf8"),
    ) as unknown;
    const described: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== "object" || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        const v = value as { description?: unknown; $ref?: unknown };
        const isPath =
          v.$ref === "#/$defs/relativePath" ||
          (typeof v.description === "string" && /\brelative to\b/i.test(v.description));
        if (at.endsWith("/properties") && isPath) described.push(`${at}/${key}`);
        walk(value, `${at}/${key}`);
      }
    };
    walk(schema, "");
    expect(described.sort()).toEqual([
      "/$defs/criterionSuite/properties/manifest-path",
      "/$defs/customSuite/properties/output",
      "/$defs/divanSuite/properties/manifest-path",
      "/$defs/gungraunSuite/properties/manifest-path",
      "/properties/golden/properties/checksums",
      "/properties/golden/properties/outputs",
    ]);
    const keys = configPaths(everyPath("ok/Cargo.toml") as BenchgateConfig).map((p) => p.key);
    expect(keys.sort()).toEqual([
      "/golden/checksums",
      "/golden/outputs",
      "/suites/0/manifest-path",
      "/suites/2/output",
      "/suites/3/manifest-path",
      "/suites/4/manifest-path",
    ]);
  });
});

describe("a suite name never becomes a path (docs/threat-model.md, I5)", () => {
  it.each(["../x", "a/b", "a\\b", ".hidden", "", "A", "x".repeat(200)])(
    "refuses the suite name %j before anything runs",
    (name) => {
      const config = everyPath("ok/Cargo.toml") as { suites: { name: string }[] };
      (config.suites[1] as { name: string }).name = name;
      const error = errorOf(() => validateConfig(config, SOURCE));
      expect(error.jsonPath).toBe("/suites/1/name");
    },
  );
});

describe("a suite's kind picks the schema its errors come from", () => {
  const suite = (fields: object): unknown => ({ version: 1, suites: [fields] });
  const problem = (fields: object): string =>
    errorOf(() => validateConfig(suite(fields), SOURCE)).describe();

  it("reports against the suite's own kind, not the first kind listed", () => {
    expect(problem({ name: "a", kind: "hyperfine", comands: [] })).toBe(
      "benchgate.yml: /suites/0: not a valid config.v1: must have required property 'commands'",
    );
  });

  it("names an unknown or missing kind", () => {
    expect(problem({ name: "a", kind: "hyperfin", commands: [] })).toBe(
      `benchgate.yml: /suites/0: not a valid config.v1: "kind" "hyperfin" is not a known kind (see ${docsUrl("docs/run.md")})`,
    );
    expect(problem({ name: "a", commands: [] })).toBe(
      'benchgate.yml: /suites/0: not a valid config.v1: needs a "kind" (a string naming its kind)',
    );
  });
});
