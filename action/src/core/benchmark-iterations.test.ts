import { describe, expect, it } from "vitest";
import { callgrindFixture as load } from "../../test/support/callgrind-fixtures.ts";
import type { InstructionProfile } from "../schemas/instruction-profile.ts";
import { isCriterionLoop, iterationCount, withoutGenerics } from "./benchmark-iterations.ts";

const NORMALIZE_BASE = load("normalize.base");
const NORMALIZE_HEAD = load("normalize.head");
const FNV_BASE = load("fnv1a.base");
const FNV_HEAD = load("fnv1a.head");

describe("iterationCount", () => {
  it("finds Criterion's loop in legacy and v0 demangled names", () => {
    expect(isCriterionLoop("criterion::bencher::Bencher<M>::iter")).toBe(true);
    expect(
      isCriterionLoop(
        "<criterion::bencher::Bencher<criterion::measurement::WallTime>>::iter_batched::<u8, fn() -> u8>",
      ),
    ).toBe(true);
    expect(isCriterionLoop("criterion::bencher::Bencher<M>::iter_custom")).toBe(true);
    expect(isCriterionLoop("criterion::bencher::Bencher<M>::iterate")).toBe(false);
    expect(isCriterionLoop("mine::criterion::bencher::Bencher::iter")).toBe(false);
    expect(withoutGenerics("<a::B<M>>::f::<u64, c::D<E>>")).toBe("a::B::f");
  });

  it("names the routine whose calls are the warm-up's 2^n − 1 iterations", () => {
    expect(iterationCount(NORMALIZE_BASE)).toMatchObject({
      count: 2047,
      method: "routine",
      routine: "demo_crate::normalize",
    });
    expect(iterationCount(NORMALIZE_HEAD)).toMatchObject({ count: 1023, method: "routine" });
    expect(iterationCount(FNV_HEAD)).toMatchObject({
      count: 32_767,
      routine: "demo_crate::fnv1a",
    });
  });

  it("counts a named routine's calls, and says why when there is no count", () => {
    expect(iterationCount(FNV_BASE, "demo_crate::fnv1a")).toMatchObject({
      count: 32_767,
      method: "routine",
      instructions: 504_021_994,
    });
    expect(iterationCount(FNV_BASE, "nowhere")).toEqual({
      reason: "the benchmark routine is not called in the profile",
    });
    const noLoop: InstructionProfile = { ...FNV_BASE, functions: new Map(), arcs: [] };
    expect(iterationCount(noLoop)).toEqual({
      reason: "no benchmark routine was named and the profile has no Criterion loop",
    });
  });

  it("falls back to the warm-up's count when the loop's callee runs more than once an iteration", () => {
    const twice: InstructionProfile = {
      ...NORMALIZE_BASE,
      arcs: NORMALIZE_BASE.arcs.map((a) =>
        a.callee.endsWith("demo_crate::normalize") ? { ...a, calls: a.calls * 2 } : a,
      ),
    };
    expect(iterationCount(twice)).toMatchObject({
      count: 2047,
      method: "warm-up",
      routine: undefined,
    });
  });
});
