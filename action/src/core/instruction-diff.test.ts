import { describe, expect, it } from "vitest";
import { callgrindFixture as load } from "../../test/support/callgrind-fixtures.ts";
import { diffProfiles, UNCHANGED_BELOW } from "./instruction-diff.ts";

const NORMALIZE_BASE = load("normalize.base");
const NORMALIZE_BASE2 = load("normalize.base2");
const NORMALIZE_HEAD = load("normalize.head");
const FNV_BASE = load("fnv1a.base");
const FNV_HEAD = load("fnv1a.head");

describe("diffProfiles on the demo's regressions", () => {
  it("normalize: +200 % per iteration, all of it in demo_crate::normalize", () => {
    const diff = diffProfiles(NORMALIZE_BASE, NORMALIZE_HEAD);
    expect(diff.basis).toEqual({
      kind: "per-iteration",
      base: 2047,
      head: 1023,
      method: "routine",
      routine: "demo_crate::normalize",
    });
    expect(diff.unchanged).toBe(false);
    expect(diff.total.relative).toBeCloseTo(2, 3);
    expect(diff.self.map((r) => r.name)).toEqual(["demo_crate::normalize"]);
    const [first] = diff.self;
    expect(first?.base).toBe(469_686_197 / 2047);
    expect(first?.head).toBe(704_192_280 / 1023);
    expect(first?.base).toBeCloseTo(229_451, 0);
    expect(first?.head).toBeCloseTo(688_360, 0);
    expect(first?.relative).toBeCloseTo(2, 3);
    // Inclusive: the loop and its callers hold the whole total and are left out.
    expect(diff.inclusive.map((r) => r.name)).toEqual(["demo_crate::normalize"]);
  });

  it("fnv1a: +3.2 % per iteration, in demo_crate::fnv1a (the hashing loop inlined into it)", () => {
    const diff = diffProfiles(FNV_BASE, FNV_HEAD);
    expect(diff.unchanged).toBe(false);
    expect(diff.total.relative).toBeCloseTo(0.0322, 4);
    expect(diff.self.map((r) => [r.name, r.base, r.head, r.change])).toEqual([
      ["demo_crate::fnv1a", 15_382, 15_878, 496],
    ]);
    expect(diff.inclusive.map((r) => r.name)).toEqual(["demo_crate::fnv1a"]);
  });

  it("two base runs of different lengths: unchanged, nothing listed", () => {
    const diff = diffProfiles(NORMALIZE_BASE, NORMALIZE_BASE2);
    expect(diff.basis).toMatchObject({ base: 2047, head: 4095 });
    // The measured run-to-run difference that UNCHANGED_BELOW (1 %) is three orders above.
    expect(Math.abs(diff.total.relative ?? 1)).toBeLessThan(0.00001);
    expect(UNCHANGED_BELOW).toBe(0.01);
    expect(diff.unchanged).toBe(true);
    expect([diff.self, diff.inclusive]).toEqual([[], []]);
  });

  it("compares whole runs when a side has no iteration count, and says which", () => {
    const diff = diffProfiles(FNV_BASE, FNV_HEAD, { routine: "not_there" });
    expect(diff.basis).toEqual({
      kind: "per-run",
      reason: "base: the benchmark routine is not called in the profile",
    });
    expect(diff.total).toMatchObject({ base: 504_294_934, head: 520_547_366 });
    expect(diff.self.map((r) => r.name)).toEqual(["demo_crate::fnv1a"]);
    // Without a scope, the functions that hold the whole run (the start-up chain down to
    // Criterion's Routine::profile, where counting starts) and the ones whose change is all in
    // one call (Criterion's loop and closures, down to the benchmark) are left out of inclusive.
    expect(diff.inclusive.map((r) => r.name)).toEqual(["demo_crate::fnv1a"]);
  });

  it("per run, leaves out of inclusive only the callers whose change is all in one call", () => {
    const whole = "a command's instructions, one run on each side";
    const diff = diffProfiles(NORMALIZE_BASE, FNV_HEAD, { wholeRun: whole });
    expect(diff.basis).toEqual({ kind: "per-run", reason: whole });
    const names = diff.inclusive.map((r) => r.name);
    // Two different benchmarks: each routine changed itself, and Criterion's loop, which calls
    // the one on base and the other on head, joins two calls' changes, so it stays; the chain
    // above the loop only passes the loop's change on.
    expect(names).toEqual([
      "demo_crate::fnv1a",
      "demo_crate::normalize",
      "criterion::bencher::Bencher<M>::iter",
    ]);
    expect(names).not.toContain("(below main)");
    expect(names).not.toContain("main");
  });

  it("caps the rankings, largest |change| first", () => {
    const all = diffProfiles(NORMALIZE_BASE, FNV_HEAD, { wholeRun: "two benchmarks" }).inclusive;
    const two = diffProfiles(NORMALIZE_BASE, FNV_HEAD, {
      wholeRun: "two benchmarks",
      top: 2,
    }).inclusive;
    expect(all.length).toBeGreaterThan(2);
    expect(two).toEqual(all.slice(0, 2));
    const sizes = all.map((r) => Math.abs(r.change));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });
});
