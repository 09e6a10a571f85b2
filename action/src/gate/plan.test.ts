// The plan of `run --aba`: base, head, base replaces the config's rounds, fixed or auto, as
// `--rounds N` does; a rounds flag that asks for anything else is refused, naming the flag.
// And whether "Where it regressed" runs: benchgate.yml's `where:`, and `--no-where` over it.
import { describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import { checkAbaOverrides, gatePlanFrom, type PlanOverrides } from "./plan.ts";

const SUITES: NonNullable<BenchgateConfig["suites"]> = [
  { name: "harness", kind: "custom", command: ["harness", "{out}"], output: "summary.json" },
];

describe("gatePlanFrom with aba", () => {
  it("runs one step per side whatever the config's rounds say", () => {
    const configs: BenchgateConfig[] = [
      { version: 1, suites: SUITES },
      { version: 1, rounds: 7, suites: SUITES },
      { version: 1, rounds: "auto", "min-rounds": 4, "time-budget": "10m", suites: SUITES },
    ];
    for (const document of configs) {
      const plan = gatePlanFrom(document, "benchgate.yml", { aba: true });
      expect(plan.aba).toBe(true);
      expect(plan.run.rounds).toBe(1);
      expect(plan.run.sequential).toBeUndefined();
    }
    const rounds = gatePlanFrom(configs[2] as BenchgateConfig, "benchgate.yml", {});
    expect(rounds.aba).toBe(false);
    expect(rounds.run.sequential?.minRounds).toBe(4);
  });

  it("--rounds 1 agrees with it", () => {
    const plan = gatePlanFrom({ version: 1, suites: SUITES }, "benchgate.yml", {
      aba: true,
      rounds: 1,
    });
    expect(plan.run.rounds).toBe(1);
  });
});

describe("checkAbaOverrides", () => {
  const clashes: [PlanOverrides, string][] = [
    [{ rounds: 3 }, "--rounds 3"],
    [{ rounds: "auto" }, "--rounds auto"],
    [{ minRounds: 3 }, "--min-rounds"],
    [{ maxRounds: 9 }, "--max-rounds"],
    [{ timeBudgetMs: 60_000 }, "--time-budget"],
  ];
  it.each(clashes)("refuses %j, naming %s", (overrides, flag) => {
    const check = (): void => checkAbaOverrides({ ...overrides, aba: true });
    expect(check).toThrow(InputError);
    expect(check).toThrow(
      `--aba runs base, head, base once each, not rounds: drop ${flag}, or drop --aba for interleaved rounds`,
    );
    // The same overrides without --aba are the rounds' own business.
    expect(() => checkAbaOverrides(overrides)).not.toThrow();
  });
});

describe("gatePlanFrom: where", () => {
  it("is on unless benchgate.yml's where: false or --no-where switches it off", () => {
    const plan = (document: BenchgateConfig, overrides: PlanOverrides = {}): boolean =>
      gatePlanFrom(document, "benchgate.yml", overrides).where;
    expect(plan({ version: 1, suites: SUITES })).toBe(true);
    expect(plan({ version: 1, where: true, suites: SUITES })).toBe(true);
    expect(plan({ version: 1, where: false, suites: SUITES })).toBe(false);
    expect(plan({ version: 1, where: true, suites: SUITES }, { where: false })).toBe(false);
  });
});
