// `kind: divan` end to end with the real harness: examples/divan-crate (divan 0.1.21) as a
// repository whose head commit changes nothing (an A/A run), two suites (a filtered target and
// one with the allocation profiler). Timings decide nothing here; what is asserted is that each
// side builds every target once, every round's stdout is saved and read, and the report holds
// every divan benchmark of both targets.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "./support/cli.ts";
import { throwAwayRepo } from "./support/git-repo.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";

const CRATE = path.join(ROOT, "examples/divan-crate");
const scratch = mkdtempSync(path.join(tmpdir(), "benchgate-divan-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The filter is divan's (a regex over `shapes::group::bench::arg`): it leaves out the
// second-long `waits` benches so the run stays short.
const CONFIG = `version: 1
rounds: 2
suites:
  - name: shapes
    kind: divan
    bench: shapes
    filter: "sum_to|checksum|contended"
    args: ["--sample-count", "20"]
  - name: allocs
    kind: divan
    bench: allocs
    args: ["--sample-count", "20"]
`;

// One target, its argument leaves only (no second-long waits), for Where.
const WHERE_CONFIG = `version: 1
rounds: 3
suites:
  - name: shapes
    kind: divan
    bench: shapes
    filter: "sum_to"
    args: ["--sample-count", "20"]
`;

/** `benchgate run` of the repository's base and head, every test with the same cache. */
function runDivan(repo: { dir: string; base: string; head: string }, out: string) {
  return runCli([
    "run",
    "--repo",
    repo.dir,
    "--base",
    repo.base,
    "--head",
    repo.head,
    "--out",
    out,
    "--cache-dir",
    path.join(scratch, "cache"),
  ]);
}

describe("divan suites (real divan 0.1.21)", { timeout: 900_000 }, () => {
  it("builds each target once per side and reads every leaf of every round", () => {
    const repo = throwAwayRepo(path.join(scratch, "repo"), {
      crate: CRATE,
      base: { "benchgate.yml": CONFIG },
    });
    const out = path.join(scratch, "out");
    const r = runDivan(repo, out);
    // An A/A run may still flag a timing on a noisy machine: 0 or 1, never an error (2 or 3).
    expect([0, 1], r.stderr.slice(-4000)).toContain(r.status);
    for (const side of ["base", "head"])
      for (const bench of ["shapes", "allocs"])
        expect(
          r.stderr
            .split("\n")
            .filter((l) => l.includes(`(${side}): building bench target ${bench}`)),
        ).toHaveLength(1);
    for (const tag of ["base-1", "head-1", "base-2", "head-2"]) {
      const saved = readFileSync(path.join(out, "raw/shapes", `${tag}.divan.txt`), "utf8");
      expect(saved).toMatch(/^shapes +fastest +│ slowest/);
      expect(existsSync(path.join(out, "raw/allocs", `${tag}.divan.txt`))).toBe(true);
    }
    const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as BenchReport;
    expect(report.benchmarks.map((b) => b.id).sort()).toEqual(
      [
        "allocs/collect/16",
        "allocs/collect/4096",
        "allocs/no_alloc",
        "allocs/push_grow",
        "shapes/checksum/fletcher16/64",
        "shapes/checksum/fletcher16/65536",
        "shapes/checksum/parse_csv",
        "shapes/nested/contended/t=1",
        "shapes/nested/contended/t=2",
        "shapes/sum_to/10",
        "shapes/sum_to/1000",
        "shapes/sum_to/100000",
      ].sort(),
    );
    expect(report.benchmarks.every((b) => b.source === "divan" && b.verdict !== undefined)).toBe(
      true,
    );
  });

  it("profiles a regression under Callgrind: a fixed count of iterations, the function named", () => {
    // Head sums ten times as far: ×10 work in sum_to, which the rule confirms under load.
    const repo = throwAwayRepo(path.join(scratch, "slower"), {
      crate: CRATE,
      base: { "benchgate.yml": WHERE_CONFIG },
      head: {
        "src/lib.rs": (text) => text.replace("(1..=n).fold", "(1..=n * 10).fold"),
      },
    });
    // The first test's cache: the dependencies are built already.
    const out = path.join(scratch, "slower-out");
    const r = runDivan(repo, out);
    expect(r.status, r.stderr.slice(-4000)).toBe(1);
    const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as BenchReport;
    const entry = report.benchmarks.find((b) => b.id === "shapes/sum_to/100000");
    expect(entry?.verdict, r.stderr.slice(-4000)).toBe("regressed");
    const diff = entry?.where?.diff;
    expect(diff, entry?.where?.note).toBeDefined();
    expect(diff?.basis).toEqual({
      kind: "per-run",
      reason:
        "divan ran 100 iterations on each side (--sample-count 1 --sample-size 100), so these are per 100 iterations",
    });
    // Counted inside divan's loop only: about ten times the instructions, in sum_to.
    expect(diff?.total.relative).toBeGreaterThan(5);
    expect(diff?.self[0]?.name).toMatch(/sum_to/);
    const head = readFileSync(path.join(out, entry?.where?.files?.head ?? "missing"), "utf8");
    expect(head).toMatch(/--exact shapes::sum_to::100000 /);
  });
});
