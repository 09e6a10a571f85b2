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

  it("Where runs one benchmark by its exact divan path, a fixed 100 iterations", () => {
    const profile = divanSuite.profile;
    expect(profile?.collect).toBe("divan::thread_pool::TaskShared*::new::call");
    const fixed = [
      "--sample-count",
      "1",
      "--sample-size",
      "100",
      "--min-time",
      "0",
      "--max-time",
      "86400",
    ];
    expect(profile?.args("shapes/sum_to/1000")).toEqual([
      "--bench",
      "--exact",
      "shapes::sum_to::1000",
      ...fixed,
    ]);
    // A thread count is not part of divan's path: one thread, as its id says.
    expect(profile?.args("shapes/nested/contended/t=1")).toEqual([
      "--bench",
      "--exact",
      "shapes::nested::contended",
      "--threads",
      "1",
      ...fixed,
    ]);
    expect(() => profile?.args("shapes/nested/contended/t=2")).toThrow(/on 2 threads/);
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
