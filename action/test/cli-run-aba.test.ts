// `benchgate run --aba` end to end with real hyperfine: base, head, base in one job, one process
// per side per step. The repository's benchmarks are sleeps (a shell script per command name);
// head makes one of them sleep three times as long, far beyond what the machine's noise does to
// a 20 ms sleep. Nothing else here depends on a timing: the other benchmarks may read anything.
// The refusals are flags that contradict --aba, reported before anything is fetched or run.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenchReport } from "../src/schemas/report.gen.ts";
import type { BenchSummary } from "../src/schemas/summary.gen.ts";
import { expectInputError, runCli, runRepo, type CliResult } from "./support/cli.ts";
import { commitAll, git } from "./support/git-repo.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-aba-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Eleven benchmarks that head leaves alone, and `slow`: enough for the suite's noise model. */
const SAME = Array.from({ length: 11 }, (_, i) => `w${String(i + 1).padStart(2, "0")}`);
const SLOW = "slow";

const work = (slowSeconds: string): string => `#!/bin/sh
# What benchmark $1 costs: a sleep.
case "$1" in
  ${SLOW}) sleep ${slowSeconds} ;;
  *) sleep 0.02 ;;
esac
`;

// rounds: 5 in the config: --aba replaces it, as --rounds N would.
const CONFIG = `version: 1
rounds: 5
suites:
  - name: sleeps
    kind: hyperfine
    warmup: 1
    runs: 10
    commands:
${[...SAME, SLOW].map((name) => `      - name: ${name}\n        command: sh work.sh ${name}`).join("\n")}
`;

let repo = "";
const cache = path.join(scratch, "cache");

function runTo(out: string, extra: readonly string[]): CliResult {
  return runRepo({ dir: repo, out, cache }, extra);
}

const said = (r: CliResult): string => `stdout:\n${r.stdout}\nstderr:\n${r.stderr.slice(-6000)}`;

beforeAll(() => {
  repo = path.join(scratch, "repo");
  mkdirSync(repo);
  git(repo, ["init", "--quiet"]);
  writeFileSync(path.join(repo, "benchgate.yml"), CONFIG);
  writeFileSync(path.join(repo, "work.sh"), work("0.02"));
  commitAll(repo, "base");
  writeFileSync(path.join(repo, "work.sh"), work("0.06"));
  commitAll(repo, "head: slow sleeps three times as long");
});

describe("run --aba (real hyperfine)", { timeout: 300_000 }, () => {
  it("measures base, head, base; the slowed benchmark regresses (exit 1), report mode aba", () => {
    const out = path.join(scratch, "out");
    const r = runTo(out, ["--aba"]);
    expect(r.status, said(r)).toBe(1);

    const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as BenchReport;
    expect(report.mode).toBe("aba");
    expect(report.verdict).toBe("fail");
    const verdicts = new Map(report.benchmarks.map((b) => [b.id, b.verdict]));
    expect([...verdicts.keys()].sort()).toEqual([...SAME, SLOW].sort());
    expect(verdicts.get(SLOW)).toBe("regressed");
    const validReport = runCli(["validate", path.join(out, "report.json"), "--schema", "report"]);
    expect(validReport.status, said(validReport)).toBe(0);

    // Three runs, saved as base rounds 1 and 2 and head round 1, one after another in that order.
    const summaries = path.join(out, "summaries");
    expect(readdirSync(summaries).sort()).toEqual(["base-1.json", "base-2.json", "head-1.json"]);
    const read = (name: string): BenchSummary =>
      JSON.parse(readFileSync(path.join(summaries, `${name}.json`), "utf8")) as BenchSummary;
    const [b1, h1, b2] = ["base-1", "head-1", "base-2"].map(read) as [
      BenchSummary,
      BenchSummary,
      BenchSummary,
    ];
    const commit = (ref: string): string => git(repo, ["rev-parse", ref]).trim();
    expect([b1, h1, b2].map((s) => [s.side, s.round, s.commit])).toEqual([
      ["base", 1, commit("main~1")],
      ["head", 1, commit("main")],
      ["base", 2, commit("main~1")],
    ]);
    const at = (t: string | undefined): number => Date.parse(t ?? "");
    expect(at(b1.finished_at)).toBeLessThanOrEqual(at(h1.started_at));
    expect(at(h1.finished_at)).toBeLessThanOrEqual(at(b2.started_at));
    for (const s of [b1, h1, b2])
      expect(s.benchmarks.map((b) => b.id).sort()).toEqual([...SAME, SLOW].sort());
    // hyperfine's own exports, one per step; no second head run.
    expect(readdirSync(path.join(out, "raw/sleeps")).sort()).toEqual([
      "base-1.json",
      "base-2.json",
      "head-1.json",
    ]);

    // The progress names the steps, in the order they ran.
    const lines = r.stderr.split("\n");
    const step = (name: string): number =>
      lines.findIndex((l) => l.includes(`] ${name} · sleeps (hyperfine): 12 benchmarks in `));
    const steps = ["base (1/2)", "head", "base (2/2)"].map(step);
    expect(
      steps.every((i) => i >= 0),
      said(r),
    ).toBe(true);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
    expect(r.stderr).toContain("base, head, base (one run each) of sleeps (hyperfine)");
    expect(r.stderr).not.toMatch(/round \d\/\d/);
    expect(r.stderr).not.toContain("too few to estimate noise");
  });

  it("refuses flags that ask for rounds or shards, in one line, before anything runs", () => {
    const cases: [readonly string[], string][] = [
      [["--rounds", "3"], "drop --rounds 3"],
      [["--rounds", "auto"], "drop --rounds auto"],
      [["--min-rounds", "3"], "drop --min-rounds"],
      [["--shard", "1/2"], "--aba cannot be combined with --shard"],
    ];
    for (const [flags, message] of cases) {
      const out = path.join(scratch, `refused-${flags.join("")}`);
      const line = expectInputError(runTo(out, ["--aba", ...flags]), flags.join(" "));
      expect(line).toContain(message);
      expect(existsSync(out)).toBe(false);
    }
  });
});
