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

describe("divan suites (real divan 0.1.21)", { timeout: 900_000 }, () => {
  it("builds each target once per side and reads every leaf of every round", () => {
    const repo = throwAwayRepo(path.join(scratch, "repo"), {
      crate: CRATE,
      base: { "benchgate.yml": CONFIG },
    });
    const out = path.join(scratch, "out");
    const r = runCli([
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
});
