import { describe, expect, it } from "vitest";
import { errorOf } from "../../../test/support/input-error.ts";
import { baselineGlob, exactBaseline, namedRuns, sideAndRound } from "./baseline-pattern.ts";

/** The baseline names of a 3-round `benchgate run` tree, and Criterion's own `new`. */
const NAMES = ["base-1", "base-2", "base-3", "head-1", "head-2", "head-3", "head-12", "new"];
const matching = (glob: string): string[] => NAMES.filter((n) => baselineGlob(glob).matches(n));

describe("baselineGlob", () => {
  it.each([
    ["*", NAMES],
    ["base-*", ["base-1", "base-2", "base-3"]],
    ["head-?", ["head-1", "head-2", "head-3"]],
    ["head-*", ["head-1", "head-2", "head-3", "head-12"]],
    ["*-1", ["base-1", "head-1"]],
    ["*-1*", ["base-1", "head-1", "head-12"]],
    ["?e?", ["new"]],
    ["*a*e*", ["base-1", "base-2", "base-3"]],
    ["*e*a*", ["head-1", "head-2", "head-3", "head-12"]],
    ["h*d-1?", ["head-12"]],
    ["base-", []],
    ["base-3", ["base-3"]],
  ])("%s", (glob, expected) => {
    expect(matching(glob)).toEqual(expected);
  });

  it("takes alternatives separated by commas, each checked like one glob", () => {
    expect(matching("base-*,head-*")).toEqual(NAMES.filter((n) => n !== "new"));
    expect(matching("new,base-1")).toEqual(["base-1", "new"]);
    expect(() => baselineGlob("base-*,")).toThrow(/invalid --baselines pattern ""/);
    expect(() => baselineGlob("base-*,a/b")).toThrow(/invalid --baselines pattern "a\/b"/);
  });

  it("treats every other character literally, regular-expression ones included", () => {
    expect(baselineGlob("a.b").matches("a.b")).toBe(true);
    expect(baselineGlob("a.b*").matches("axb")).toBe(false);
    expect(baselineGlob("[ab]*").matches("a1")).toBe(false);
    expect(baselineGlob("[ab]*").matches("[ab]1")).toBe(true);
  });

  it("matches a hostile name against a many-star pattern without backtracking for long", () => {
    const name = "a".repeat(255);
    expect(baselineGlob(`${"*a".repeat(20)}*b`).matches(name)).toBe(false);
    expect(baselineGlob(`${"*a".repeat(20)}*`).matches(name)).toBe(true);
  });

  it("never matches report/ or change/, which are not baselines", () => {
    expect(baselineGlob("*").matches("report")).toBe(false);
    expect(baselineGlob("ch*").matches("change")).toBe(false);
  });

  it("without a wildcard is the exact name, checked like --baseline", () => {
    expect(baselineGlob("head-3").exact).toBe("head-3");
    expect(baselineGlob("head-*").exact).toBeUndefined();
    expect(errorOf(() => baselineGlob("report")).message).toBe(
      'invalid Criterion baseline name "report"',
    );
  });

  it.each(["", "base/*", "..\\*", "a\0*", "*".repeat(256)])("refuses the pattern %j", (glob) => {
    expect(errorOf(() => baselineGlob(glob)).message).toMatch(/^invalid --baselines pattern /);
  });
});

describe("exactBaseline", () => {
  it.each(["../base", "report", "change", "", ".", "..", "a/b", "a\\b", "x".repeat(256)])(
    "refuses the name %j",
    (name) => {
      expect(errorOf(() => exactBaseline(name)).message).toMatch(
        /^invalid Criterion baseline name/,
      );
    },
  );
});

describe("sideAndRound", () => {
  it.each([
    ["base-3", "base", 3],
    ["head-12", "head", 12],
    ["pr.head_x-10000", "pr.head_x", 10000],
    ["new", "new", 1],
    ["base", "base", 1],
    // Not `benchgate run`'s spelling of a round: the whole name is the side.
    ["base-0", "base-0", 1],
    ["base-03", "base-03", 1],
    ["base-10001", "base-10001", 1],
    ["-3", "-3", 1],
  ])("%s → side %s, round %i", (name, side, round) => {
    expect(sideAndRound(name, "tree")).toEqual({ side, round });
  });

  it.each(["my base", "bidi \u202etxt", "x".repeat(65)])(
    "refuses %j, which cannot be a side label or a plain file name",
    (name) => {
      const error = errorOf(() => sideAndRound(name, "/t/criterion"));
      expect(error.describe()).toMatch(
        /^\/t\/criterion: baseline ".*" cannot name a side \(1–64 letters, digits, "\.", "_" or "-"\); narrow --baselines to leave it out$/,
      );
    },
  );
});

describe("namedRuns", () => {
  it("orders by side, then by round as a number", () => {
    expect(namedRuns(["head-10", "base-2", "head-2", "base-10", "new"], "tree")).toEqual([
      { baseline: "base-2", side: "base", round: 2 },
      { baseline: "base-10", side: "base", round: 10 },
      { baseline: "head-2", side: "head", round: 2 },
      { baseline: "head-10", side: "head", round: 10 },
      { baseline: "new", side: "new", round: 1 },
    ]);
  });

  it("refuses two baselines that would be the same side and round", () => {
    expect(errorOf(() => namedRuns(["base", "base-1", "head-1"], "/t")).describe()).toBe(
      '/t: baselines "base" and "base-1" would both be side base, round 1; narrow --baselines to one of them',
    );
  });
});
