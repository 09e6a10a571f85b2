// `kind: instructions` end to end, with the real tools: a small C program built by the config's
// build step, run under Valgrind (cachegrind, ASLR off) on both sides. Counts are exact, so these
// tests can assert the verdicts: an A/A run reads the same count on every round and side, a
// +3 % change of work is a regression, a loop that spins until a deadline is reported as
// non-deterministic, and the runner's environment does not reach the counted process.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitAll, git } from "./support/git-repo.ts";
import { runRepo, type RunTarget } from "./support/cli.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";
import { runSuite } from "../src/runner/run-suite.ts";
import { resolveRunConfig } from "../src/config/run-config.ts";
import { nodeProcess } from "../src/io/node-process.ts";
import { nodeDirs } from "../src/io/node-dirs.ts";
import { nodeFileReader } from "../src/io/node-files.ts";
import { nodeServices } from "../src/io/node-services.ts";
import { sideEnv } from "../src/runner/suite-commands.ts";

const LONG = 300_000;
const scratch = mkdtempSync(path.join(tmpdir(), "benchgate-instructions-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// `busy N`: N rounds of FNV-1a, a fixed amount of work. `spin MS`: counts clock reads until MS
// milliseconds have passed, so its instruction count follows the machine's speed.
const PROGRAM = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(int argc, char **argv) {
  long n = argc > 2 ? atol(argv[2]) : 1000;
  if (argc > 2 && strcmp(argv[1], "spin") == 0) {
    struct timespec a, b;
    unsigned long k = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do { k++; clock_gettime(CLOCK_MONOTONIC, &b); }
    while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < n);
    printf("%d\\n", k > 0);
    return 0;
  }
  unsigned long h = 1469598103934665603UL;
  for (long i = 0; i < n; i++) { h ^= (unsigned long)i; h *= 1099511628211UL; }
  printf("%lu\\n", h & 1);
  return 0;
}
`;

const CONFIG = `version: 1
rounds: 2
build:
  - ["cc", "-O2", "-o", "{target}/tiny", "tiny.c"]
suites:
  - name: startup
    kind: instructions
    commands:
      - name: busy
        command: ["{target}/tiny", "busy", "200000"]
      - name: spin
        command: ["{target}/tiny", "spin", "40"]
`;

function repo(name: string, head?: (source: string) => string): RunTarget {
  const dir = path.join(scratch, name, "repo");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "tiny.c"), PROGRAM);
  writeFileSync(path.join(dir, "benchgate.yml"), CONFIG);
  git(dir, ["init", "--quiet"]);
  commitAll(dir, "base");
  if (head !== undefined) writeFileSync(path.join(dir, "tiny.c"), head(PROGRAM));
  commitAll(dir, "head");
  return { dir, out: path.join(scratch, name, "out"), cache: path.join(scratch, name, "cache") };
}

function run(r: RunTarget): { status: number | null; stderr: string; report: BenchReport } {
  const result = runRepo(r);
  const report = JSON.parse(readFileSync(path.join(r.out, "report.json"), "utf8")) as BenchReport;
  return { status: result.status, stderr: result.stderr, report };
}

const entry = (report: BenchReport, id: string) => report.benchmarks.find((b) => b.id === id);

describe("instructions suites (real Valgrind)", { timeout: LONG }, () => {
  it("A/A: every round reads the same count; a spin loop is reported as non-deterministic", () => {
    const aa = repo("aa");
    const { status, stderr, report } = run(aa);
    expect(status === 0 || status === 1, stderr).toBe(true);
    const busy = entry(report, "busy");
    expect(busy).toMatchObject({
      verdict: "unchanged",
      change: 0,
      unit: "instructions",
      determinism: { status: "deterministic", spread: { base: 0, head: 0 } },
    });
    expect(busy?.base?.per_round).toHaveLength(2);
    expect(new Set([...(busy?.base?.per_round ?? []), ...(busy?.head?.per_round ?? [])]).size).toBe(
      1,
    );
    // Its count follows the machine's speed: reported, never regressed or unchanged.
    const spin = entry(report, "spin");
    expect(spin?.determinism?.status).toBe("non-deterministic");
    expect(
      Math.max(spin?.determinism?.spread.base ?? 0, spin?.determinism?.spread.head ?? 0),
    ).toBeGreaterThan(0);
    expect(spin?.verdict).toBe("inconclusive");
    expect(spin?.notes.join("\n")).toMatch(/non-deterministic count: .*reported, not decided/);
    expect(report.reasons.join("\n")).toMatch(/1 count not deterministic/);
    expect(report.reasons.join("\n")).not.toMatch(/deterministic count.* regressed/);
    const comment = readFileSync(path.join(aa.out, "comment.md"), "utf8");
    expect(comment).toContain("Instruction counts (");
    expect(comment).toMatch(/<code>spin<\/code>.*\*\*non-deterministic\*\*/);
  });

  it("+3 % more work in head is a regression of the count, and fails the gate", () => {
    // n/33 more iterations of the loop: about +3 % instructions.
    const { status, stderr, report } = run(
      repo("slower", (source) => source.replace("i < n; i++", "i < n + n / 33; i++")),
    );
    expect(status, stderr).toBe(1);
    const busy = entry(report, "busy");
    expect(busy?.verdict).toBe("regressed");
    expect(busy?.change).toBeGreaterThan(0.01);
    expect(busy?.change).toBeLessThan(0.1);
    expect(report.reasons.join("\n")).toMatch(/deterministic count regressed by at least 1\.0 %/);
  });

  it("the runner's environment does not reach the counted process", async () => {
    const r = repo("env");
    const target = path.join(scratch, "env", "target");
    mkdirSync(target, { recursive: true });
    execFileSync("cc", ["-O2", "-o", path.join(target, "tiny"), path.join(r.dir, "tiny.c")]);
    const config = resolveRunConfig(
      {
        version: 1,
        suites: [
          {
            name: "startup",
            kind: "instructions",
            commands: [{ name: "busy", command: ["{target}/tiny", "busy", "200000"] }],
          },
        ],
      },
      "benchgate.yml",
      { needSuites: true },
    );
    const suite = config.suites[0];
    if (suite === undefined) throw new Error("no suite");
    const deps = {
      proc: nodeProcess,
      services: nodeServices,
      dirs: nodeDirs,
      reader: nodeFileReader,
      signal: new AbortController().signal,
    };
    const paths = { worktree: r.dir, target };
    const parent = Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    );
    mkdirSync(path.join(r.out, "logs"), { recursive: true });
    // Base with a variable only it has (a PR-only secret, a longer path), head without it.
    const base = await runSuite(
      suite,
      {
        side: "base",
        round: 1,
        out: r.out,
        paths,
        env: sideEnv({ ...parent, PR_ONLY: "x".repeat(300) }, paths),
      },
      deps,
    );
    const head = await runSuite(
      suite,
      { side: "head", round: 1, out: r.out, paths, env: sideEnv(parent, paths) },
      deps,
    );
    const count = (b: typeof base) => b.find((x) => x.id === "busy")?.estimates.median;
    expect(count(base)).toBeGreaterThan(100_000);
    expect(count(base)).toBe(count(head));

    // The control: the same two environments given to the process do change its count, so
    // the equality above is the equalising's doing.
    const direct = (extra: Record<string, string>): number => {
      const file = path.join(scratch, "env", `direct-${Object.keys(extra).length}.out`);
      execFileSync(
        "setarch",
        [
          "-R",
          "valgrind",
          "--tool=cachegrind",
          "--cache-sim=no",
          `--cachegrind-out-file=${file}`,
          path.join(target, "tiny"),
          "busy",
          "200000",
        ],
        { env: { PATH: "/usr/bin:/bin", ...extra }, stdio: "ignore" },
      );
      return Number(/^summary: (\d+)$/m.exec(readFileSync(file, "utf8"))?.[1]);
    };
    expect(direct({ PR_ONLY: "x".repeat(300) })).not.toBe(direct({}));
  });
});
