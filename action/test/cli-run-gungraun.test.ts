// `kind: gungraun` end to end, with the real tools: the gungraun 0.20 fixture crate
// (test/fixtures/gungraun-0.20/crate) as a repository, its runner found through the crate's
// Cargo.lock in the tools folder (setup installs it; otherwise the run installs it), and a head
// whose `sum_to` loops 4 % more. Counts are exact, so the verdicts can be asserted.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitAll, copyCrate, git } from "./support/git-repo.ts";
import { ROOT, runCli } from "./support/cli.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";

const CRATE = path.join(ROOT, "action/test/fixtures/gungraun-0.20/crate");
const scratch = mkdtempSync(path.join(tmpdir(), "benchgate-gungraun-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CONFIG = `version: 1
rounds: 2
suites:
  - name: counts
    kind: gungraun
    bench: sum
`;

describe("gungraun suites (real Valgrind and gungraun-runner)", { timeout: 900_000 }, () => {
  it("reads every benchmark's instructions; a 4 % longer loop regresses, the rest stays exact", () => {
    const dir = path.join(scratch, "repo");
    copyCrate(CRATE, dir);
    writeFileSync(path.join(dir, "benchgate.yml"), CONFIG);
    git(dir, ["init", "--quiet"]);
    commitAll(dir, "base");
    const lib = path.join(dir, "src/lib.rs");
    writeFileSync(
      lib,
      readFileSync(lib, "utf8").replace("for i in 1..=n {", "for i in 1..=(n + n / 25) {"),
    );
    commitAll(dir, "head");
    const out = path.join(scratch, "out");
    mkdirSync(path.join(scratch, "cache"), { recursive: true });
    const r = runCli([
      "run",
      "--repo",
      dir,
      "--base",
      "main~1",
      "--head",
      "main",
      "--out",
      out,
      "--cache-dir",
      path.join(scratch, "cache"),
    ]);
    expect(r.status, r.stderr.slice(-4000)).toBe(1);
    expect(r.stderr).toMatch(/suite counts \(base\): gungraun 0\.20\.0, runner /);
    const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as BenchReport;
    const entry = (id: string) => report.benchmarks.find((b) => b.id === id);

    const large = entry("sum::sums::bench_sum large");
    expect(large).toMatchObject({
      verdict: "regressed",
      source: "gungraun",
      metric: "instructions",
      determinism: { status: "deterministic", spread: { base: 0, head: 0 } },
    });
    expect(large?.change).toBeGreaterThan(0.03);
    expect(large?.change).toBeLessThan(0.05);
    expect(entry("sum::sums::bench_collect collect_1000")).toMatchObject({
      verdict: "unchanged",
      change: 0,
    });
    // DHAT's allocated bytes of the untouched benchmark: a secondary count, shown, not counted.
    expect(entry("sum::sums::bench_collect collect_1000 [total_bytes]")).toMatchObject({
      secondary: true,
      verdict: "unchanged",
    });
    expect(report.counts.total).toBe(3);
    const comment = readFileSync(path.join(out, "comment.md"), "utf8");
    expect(comment).toMatch(
      /<code>sum::<!-- -->sums::bench_sum large<\/code> \| [\d,]+ instructions \| [\d,]+ instructions \| \+\d+\.\d % \| exact \| 🔴 regressed/,
    );
  });
});
