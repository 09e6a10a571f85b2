// benchgate compare with one run per side and its noise from elsewhere (docs/statistics.md §14):
// --history history.json, --aba, and the refusals, through the real CLI process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expectInputError, runCli } from "./support/cli.ts";
import { singleRunHistory } from "./support/single-run-history.ts";
import { syntheticSuite } from "./support/synthetic.ts";
import { validateReport } from "../src/schemas/validate-document.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";

let dir: string;
const files: Record<string, string> = {};
/** The runner every record and run of this file was measured on. */
const RUNNER = "cd".repeat(8);

function onRunner<T extends object>(summary: T): T & { environment: { fingerprint: string } } {
  return { ...summary, environment: { fingerprint: RUNNER } };
}

function write(name: string, value: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-one-run-"));
  // 25 rounds of base are the default branch's history; round 26 is the pull request, where
  // benchmark 3 runs twice as long.
  const suite = syntheticSuite({
    benchmarks: 24,
    rounds: 26,
    samples: 15,
    noise: 0.02,
    seed: 8,
    scale: (i) => (i === 3 ? 2 : 1),
  });
  const history = singleRunHistory(
    suite.base.slice(0, 25).map((f) => f.summary),
    { fingerprint: RUNNER },
  );
  files.history = write("history.json", history);
  files.base = write("base.json", onRunner({ ...suite.base[25]?.summary, round: 1 }));
  files.head = write("head.json", onRunner({ ...suite.head[25]?.summary, round: 1 }));
  files.base2 = write("base-2.json", onRunner({ ...suite.base[24]?.summary, round: 2 }));
  // The same head with no runner fingerprint: no record can be shown to come from its runner.
  files.unknown = write("head-unknown.json", { ...suite.head[25]?.summary, round: 1 });
  files.hostile = write("hostile.json", { ...history, commits: [{ sha: "x" }] });
  files.short = write("short.json", { ...history, commits: history.commits.slice(0, 10) });
  // The same head measured on a runner the history has no record of.
  files.elsewhere = write("head-elsewhere.json", {
    ...suite.head[25]?.summary,
    round: 1,
    environment: { fingerprint: "ab".repeat(8) },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function report(name: string): BenchReport {
  return validateReport(JSON.parse(readFileSync(path.join(dir, name), "utf8")), name);
}

describe("benchgate compare, one run per side", () => {
  it("--history: tests against the history's noise, names it, and fails on the ×2", () => {
    const json = path.join(dir, "history-report.json");
    const md = path.join(dir, "history-comment.md");
    const r = runCli([
      "compare",
      "--base",
      files.base as string,
      "--head",
      files.head as string,
      "--history",
      files.history as string,
      "--json",
      json,
      "--markdown",
      md,
    ]);
    expect(r.status, r.stderr).toBe(1);
    const out = report("history-report.json");
    expect(out.mode).toBe("history");
    expect(out.noise.history).toMatchObject({ commits: 25, benchmarks: 24, without: 0 });
    expect(out.benchmarks.filter((e) => e.verdict === "regressed").map((e) => e.id)).toEqual([
      "group/bench-3",
    ]);
    const markdown = readFileSync(md, "utf8");
    expect(markdown).toMatch(/one run per side, noise from 25 default-branch runs of this runner/);
    expect(markdown).toMatch(/\[!NOTE\]\n> One run per side: each benchmark's noise is estimated/);
    expect(markdown).not.toMatch(/unverified/i);
    expect(r.stdout).toMatch(/one run per side, noise from 25 default-branch runs/);
  });

  it("without --history the same pair is the unverified single run", () => {
    const json = path.join(dir, "single.json");
    runCli([
      "compare",
      "--base",
      files.base as string,
      "--head",
      files.head as string,
      "--json",
      json,
    ]);
    expect(report("single.json").mode).toBe("single-run");
    // A history too short to estimate from is said to be unused, not silently dropped.
    const short = runCli([
      "compare",
      "--base",
      files.base as string,
      "--head",
      files.head as string,
      "--history",
      files.short as string,
      "--json",
      json,
    ]);
    expect(report("single.json").mode).toBe("single-run");
    expect(short.stderr).toMatch(/--history not used: no benchmark has 20 usable records/);
    const elsewhere = runCli([
      "compare",
      "--base",
      files.base as string,
      "--head",
      files.elsewhere as string,
      "--history",
      files.history as string,
    ]);
    expect(elsewhere.stderr).toMatch(
      /--history not used: it has no single-run record from head's runner \(fingerprint abab/,
    );
    const unknown = runCli([
      "compare",
      "--base",
      files.base as string,
      "--head",
      files.unknown as string,
      "--history",
      files.history as string,
      "--json",
      json,
    ]);
    expect(report("single.json").mode).toBe("single-run");
    expect(unknown.stderr).toMatch(
      /--history not used: head's results record no runner fingerprint, so no record can be shown to come from its runner/,
    );
  });

  it("--aba: two base runs around the head run", () => {
    const json = path.join(dir, "aba.json");
    const r = runCli([
      "compare",
      "--base",
      files.base as string,
      files.base2 as string,
      "--head",
      files.head as string,
      "--aba",
      "--json",
      json,
    ]);
    expect(r.status, r.stderr).toBe(1);
    expect(report("aba.json").mode).toBe("aba");
    expect(r.stdout).toMatch(/base, head, base in one job/);
  });

  it("refuses what cannot be right, in one line", () => {
    const pair = ["--base", files.base as string, "--head", files.head as string];
    expect(
      expectInputError(runCli(["compare", ...pair, "--aba", "--history", files.history as string])),
    ).toMatch(/--history or --aba, not both/);
    expect(
      expectInputError(
        runCli(["compare", ...pair, "--history", files.history as string, "--history-window", "5"]),
      ),
    ).toMatch(/--history-window must be an integer in \[20, 100000\]/);
    expect(expectInputError(runCli(["compare", ...pair, "--history-window", "30"]))).toMatch(
      /--history-window needs --history FILE/,
    );
    expect(expectInputError(runCli(["compare", ...pair, "--aba"]))).toMatch(
      /--aba needs two base runs and one head run/,
    );
    expect(
      expectInputError(runCli(["compare", ...pair, "--history", files.hostile as string])),
    ).toMatch(/hostile\.json/);
  });
});
