import { describe, expect, it } from "vitest";
import { resolveRunConfig, type SuitePlan } from "../run-config.ts";
import { SUITE_KINDS, suiteKind } from "./registry.ts";

/** Every kind once, as `benchgate run` plans it. */
const PLANS: readonly SuitePlan[] = resolveRunConfig(
  {
    version: 1,
    suites: [
      { name: "c", kind: "criterion", bench: "b", "manifest-path": "crates/c/Cargo.toml" },
      { name: "h", kind: "hyperfine", commands: [{ name: "x", command: "true" }] },
      { name: "u", kind: "custom", command: ["h", "{out}"], output: "s.json" },
      { name: "g", kind: "gungraun", bench: "g" },
      { name: "i", kind: "instructions", commands: [{ name: "ls", command: ["ls"] }] },
      {
        name: "l",
        kind: "load",
        server: ["srv"],
        endpoints: [{ name: "health", path: "/" }],
        duration: "2s",
      },
      { name: "d", kind: "divan", bench: "d" },
    ],
  },
  "benchgate.yml",
  { needSuites: true },
).suites;

/** The kinds whose `pick` holds. */
const kindsWith = (pick: (plan: SuitePlan) => boolean): string[] =>
  PLANS.filter(pick).map((p) => p.kind);

describe("what each suite kind tells the runner and the gate", () => {
  it("plans every kind here", () => {
    expect(PLANS.map((p) => p.kind)).toEqual(SUITE_KINDS.map((k) => k.name));
  });

  it("builds the bench targets of the Cargo harnesses, the executables named and gungraun's runner installed", () => {
    const builds = PLANS.flatMap((p) => {
      const build = suiteKind(p).build;
      return build === undefined ? [] : [[p.kind, build.target(p).bench] as const];
    });
    expect(builds).toEqual([
      ["criterion", "b"],
      ["gungraun", "g"],
      ["divan", "d"],
    ]);
    expect(kindsWith((p) => suiteKind(p).build?.runsExecutable === true)).toEqual([
      "criterion",
      "divan",
    ]);
    expect(kindsWith((p) => suiteKind(p).build?.needsHarnessRunner === true)).toEqual(["gungraun"]);
  });

  it("lists criterion's benchmarks before the rounds, with its filter", () => {
    expect(kindsWith((p) => suiteKind(p).listArgv !== undefined)).toEqual(["criterion"]);
    const criterion = PLANS[0] as SuitePlan;
    expect(suiteKind(criterion).listArgv?.(criterion)).toEqual([
      "cargo",
      "bench",
      "--bench",
      "b",
      "--manifest-path",
      "crates/c/Cargo.toml",
      "--",
      "--list",
    ]);
  });

  it("knows the ids of listed and named benchmarks before they run, and cuts pairs by them", () => {
    const ids = PLANS.map((p) =>
      suiteKind(p).idsBeforeRun?.(p, p.kind === "criterion" ? ["a/1"] : undefined),
    );
    expect(ids).toEqual([["a/1"], ["x"], undefined, undefined, ["ls"], undefined, undefined]);
    expect(PLANS.map((p) => suiteKind(p).pairUnit)).toEqual([
      "benchmark",
      "command",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("guesses a round's time only from settings it has: criterion not before its listing names a benchmark", () => {
    const guess = (p: SuitePlan, count: number | undefined): number | undefined =>
      suiteKind(p).estimateSideMs?.(p, count, false, { wholeSeconds: false });
    expect(PLANS.map((p) => guess(p, 1))).toEqual([
      8300,
      3300,
      undefined,
      undefined,
      2000,
      2300,
      undefined,
    ]);
    const criterion = PLANS[0] as SuitePlan;
    expect(guess(criterion, 0)).toBeUndefined();
    expect(guess(criterion, undefined)).toBeUndefined();
  });

  it("marks deterministic counts, critcmp's table and a load suite's own budget rules", () => {
    expect(kindsWith((p) => suiteKind(p).deterministicCounts !== undefined)).toEqual([
      "gungraun",
      "instructions",
    ]);
    expect(kindsWith((p) => suiteKind(p).critcmpTable === true)).toEqual(["criterion"]);
    expect(kindsWith((p) => suiteKind(p).budgetRules !== undefined)).toEqual(["load"]);
  });

  it("says how long criterion's short processes should take, unless the suite's args set the times", () => {
    const criterion = PLANS[0] as SuitePlan & { readonly args: readonly string[] };
    const kind = suiteKind(criterion);
    expect(kind.shortProcessTime?.(criterion, { wholeSeconds: false })).toEqual({
      warmUpMs: 200,
      measurementMs: 500,
      samples: 10,
    });
    expect(kind.shortProcessTime?.(criterion, { wholeSeconds: true })).toMatchObject({
      warmUpMs: 1000,
      measurementMs: 1000,
    });
    const own = { ...criterion, args: ["--measurement-time", "3"] };
    expect(kind.shortProcessTime?.(own, { wholeSeconds: false })).toBeUndefined();
    expect(kind.harness?.crate).toBe("criterion");
    expect(kind.harness?.facts(["0.3.6"]).wholeSeconds).toBe(true);
    expect(kind.harness?.facts(["0.5.1"]).wholeSeconds).toBe(false);
  });
});
