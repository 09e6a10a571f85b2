// preparePairs: which Criterion version each side's Cargo.lock names (before 0.4 the time flags
// are whole seconds), and the line per suite saying how its processes run.
import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MICRO_IDS, SUITES, fakeConfig, sceneMaker } from "../../test/support/fake-runner.ts";
import { preparePairs } from "./pair-setup.ts";

const scene = sceneMaker("benchgate-pair-setup-");

const lock = (criterion: string): string =>
  [
    "version = 4",
    '[[package]]\nname = "cast"\nversion = "0.3.0"\n',
    `[[package]]\nname = "criterion"\nversion = "${criterion}"\n`,
  ].join("\n");

/** preparePairs on a scene whose worktrees hold these locks (undefined: no lock). */
async function prepare(name: string, locks: { base?: string; head?: string }, suites = SUITES) {
  const s = scene(name);
  const { request, sides, deps } = s.parts(fakeConfig({ schedule: "pairs", suites }));
  for (const side of ["base", "head"] as const) {
    mkdirSync(sides[side].worktree, { recursive: true });
    const text = locks[side];
    if (text !== undefined) writeFileSync(path.join(sides[side].worktree, "Cargo.lock"), text);
  }
  const listed = new Map([["micro", MICRO_IDS]]);
  const setup = await preparePairs({ ...request, together: [["a", "b"]] }, sides, listed, deps);
  return { setup, text: s.text() };
}

describe("preparePairs", () => {
  it("takes decimal seconds when both sides link Criterion 0.4 or later, and says how each suite runs", async () => {
    const { setup, text } = await prepare("new", { base: lock("0.5.1"), head: lock("0.8.2") });
    expect(setup.wholeSeconds).toEqual(new Set());
    expect(setup.listed.get("micro")).toEqual(MICRO_IDS);
    expect(setup.together).toEqual([["a", "b"]]);
    expect(text).toContain(
      "suite micro (criterion, pairs): 3 benchmarks listed, one per process, with --warm-up-time 0.2 --measurement-time 0.5 --sample-size 10\n",
    );
    expect(text).toContain(
      "suite cli (hyperfine, pairs): one command per process, with --warmup 1 --runs 10\n",
    );
    expect(text).toContain("suite harness (custom, pairs): the whole suite per process\n");
  });

  it("takes whole seconds when one side links Criterion before 0.4, or no version is found", async () => {
    for (const [name, locks] of [
      ["old-base", { base: lock("0.3.6"), head: lock("0.5.1") }],
      ["no-lock", {}],
      ["no-criterion", { base: "version = 4\n", head: "version = 4\n" }],
    ] as const) {
      const { setup, text } = await prepare(name, locks);
      expect(setup.wholeSeconds, name).toEqual(new Set(["micro"]));
      expect(text, name).toContain(
        "with --warm-up-time 1 --measurement-time 1 --sample-size 10 (Criterion before 0.4, or no version found: whole seconds)",
      );
    }
  });

  it("names the time flags the suite's own args keep", async () => {
    const own = structuredClone(SUITES);
    own[0] = { ...own[0], args: ["--measurement-time", "3"] } as (typeof own)[0];
    const { text } = await prepare("own", { base: lock("0.5.1"), head: lock("0.5.1") }, own);
    expect(text).toContain(
      "with --warm-up-time 0.2 --sample-size 10; its own --measurement-time from the config kept\n",
    );
  });
});
