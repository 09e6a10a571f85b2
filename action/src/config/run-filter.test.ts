import { describe, expect, it } from "vitest";
import { resolveRunConfig } from "./run-config.ts";
import { withFilter } from "./run-filter.ts";

const config = resolveRunConfig(
  {
    version: 1,
    suites: [
      { name: "micro", kind: "criterion", bench: "demo", filter: "old" },
      {
        name: "cli",
        kind: "hyperfine",
        commands: [
          { name: "help", command: "x --help" },
          { name: "stats", command: "x stats" },
        ],
      },
      { name: "cli2", kind: "hyperfine", commands: [{ name: "version", command: "x -V" }] },
      { name: "harness", kind: "custom", command: ["h"], output: "s.json" },
    ],
  },
  "benchgate.yml",
  { needSuites: true },
);

describe("withFilter", () => {
  it("replaces Criterion's filter, keeps matching hyperfine commands, drops empty hyperfine suites", () => {
    const filtered = withFilter(config, "^(parse|stats)");
    expect(filtered.suites.map((s) => s.name)).toEqual(["micro", "cli", "harness"]);
    const [micro, cli] = filtered.suites;
    expect(micro?.kind === "criterion" && micro.filter).toBe("^(parse|stats)");
    expect(cli?.kind === "hyperfine" && cli.commands.map((c) => c.name)).toEqual(["stats"]);
    expect(config.suites).toHaveLength(4); // the original is untouched
  });

  it("refuses an invalid or option-like filter", () => {
    expect(() => withFilter(config, "(")).toThrow("not a valid regular expression");
    expect(() => withFilter(config, "-x")).toThrow("must not start with '-'");
  });
});
