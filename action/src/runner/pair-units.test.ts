import { describe, expect, it } from "vitest";
import { PLANS } from "../../test/support/fake-runner.ts";
import { exactIdFilter } from "../config/suites/criterion/exact-id-filter.ts";
import { pairUnits, type PairSetup } from "./pair-units.ts";

const { micro, cli, counts, harness } = PLANS;
const SETUP: PairSetup = {
  listed: new Map([["micro", ["a", "b", "c"]]]),
  together: [["c", "a"]],
  wholeSeconds: new Set(),
};
const describeUnits = (units: ReturnType<typeof pairUnits>) =>
  units.map((u) => [u.plan.name, u.ids, u.plan.kind === "criterion" ? u.plan.filter : undefined]);

describe("pairUnits", () => {
  it("cuts Criterion by listed id and hyperfine by command; joins ids compared with each other", () => {
    const units = pairUnits({ suites: [micro, cli, counts, harness] }, SETUP);
    expect(describeUnits(units)).toEqual([
      ["micro", ["a", "c"], exactIdFilter(["a", "c"])],
      ["micro", ["b"], exactIdFilter(["b"])],
      ["cli", ["help"], undefined],
      ["cli", ["stats"], undefined],
      // Exact counts gain nothing from adjacent processes: the suite runs whole.
      ["counts", undefined, undefined],
      ["harness", undefined, undefined],
    ]);
    expect(units[3]?.plan).toMatchObject({ commands: [{ name: "stats" }] });
  });

  it("keeps only the open ids after a look, and a suite the plan keeps whole as one unit", () => {
    const units = pairUnits({ suites: [micro, cli], active: new Set(["b", "stats"]) }, SETUP);
    expect(describeUnits(units)).toEqual([
      ["micro", ["b"], exactIdFilter(["b"])],
      ["cli", ["stats"], undefined],
    ]);
    const whole = pairUnits({ suites: [micro], whole: new Set(["micro"]) }, SETUP);
    expect(describeUnits(whole)).toEqual([["micro", undefined, undefined]]);
  });

  it("a Criterion suite whose --list named nothing runs whole, never not at all", () => {
    expect(pairUnits({ suites: [micro] }, { ...SETUP, listed: new Map() })).toEqual([
      { plan: micro },
    ]);
  });
});
