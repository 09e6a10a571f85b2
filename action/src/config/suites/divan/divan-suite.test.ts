import { describe, expect, it } from "vitest";
import type { DivanSuite } from "../../../schemas/config.gen.ts";
import { InputError } from "../../../errors.ts";
import { withFilter } from "../../run-filter.ts";
import { resolveRunConfig } from "../../run-config.ts";
import type { StepContext } from "../suite-kind.ts";
import { cargoBenchBuildArgv } from "../cargo-bench-target.ts";
import { divanSuite, type DivanSuitePlan } from "./divan-suite.ts";

function config(entry: Partial<DivanSuite>) {
  return resolveRunConfig(
    { version: 1, suites: [{ name: "parse", kind: "divan", bench: "parse", ...entry }] },
    "benchgate.yml",
    { needSuites: true },
  );
}
const plan = (entry: Partial<DivanSuite> = {}) => config(entry).suites[0] as DivanSuitePlan;

const run: StepContext = {
  side: "head",
  round: 2,
  tag: "head-2",
  dir: "/out/raw/parse",
  paths: { worktree: "/tmp/wt/head", target: "/cache/target-head" },
};

describe("divan suites", () => {
  it("run the bench target with its args and filter, stdout saved as the round's output", () => {
    const p = plan({
      "manifest-path": "crates/parse/Cargo.toml",
      features: ["simd", "std"],
      args: ["--sample-count", "50"],
      filter: "parse::state",
      timeout: "10m",
    });
    expect(p.timeoutMs).toBe(600_000);
    expect(divanSuite.step(p, run)).toEqual({
      argv: [
        "cargo",
        "bench",
        "--bench",
        "parse",
        "--manifest-path",
        "crates/parse/Cargo.toml",
        "--features",
        "simd,std",
        "--",
        "--sample-count",
        "50",
        "parse::state",
      ],
      output: { format: "divan", path: "/out/raw/parse/head-2.divan.txt", fromStdout: true },
    });
    expect(cargoBenchBuildArgv(plan({ package: "p" }))).toEqual([
      "cargo",
      "bench",
      "--no-run",
      "--bench",
      "parse",
      "--package",
      "p",
    ]);
  });

  it("/rebench's filter over benchgate ids becomes divan's, with :: for /", () => {
    const narrowed = withFilter(config({ filter: "old" }), "parse/state/1000");
    expect((narrowed.suites[0] as DivanSuitePlan).filter).toBe("parse::state::1000");
  });

  it("sequential rounds run the whole target while any of its benchmarks is open", () => {
    const p = plan();
    const active = new Set(["parse/a"]);
    expect(divanSuite.narrow(p, { ids: ["parse/a"], active })).toEqual({
      plan: p,
      unfiltered: true,
    });
    expect(divanSuite.narrow(p, { ids: [], active })).toBeUndefined();
  });

  it.each([
    [{ filter: "-x" }, "/suites/0/filter", /must not start with '-'/],
    [{ args: ["--sample-count", "9", "--list"] }, "/suites/0/args/2", /--list makes divan print/],
    [{ args: ["--format=terse"] }, "/suites/0/args/0", /--format makes divan print/],
  ])("refuses %j", (entry, jsonPath, message) => {
    let caught: unknown;
    try {
      plan(entry);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as InputError).jsonPath).toBe(jsonPath);
    expect((caught as InputError).message).toMatch(message);
  });
});
