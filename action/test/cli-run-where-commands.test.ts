// "Where it regressed" for suites whose benchmarks are commands, end to end with the real tools:
// a small C program built by the config's build step, timed by hyperfine through a shell
// pipeline and counted under Cachegrind; head does ten times the work. After the verdict each
// regression runs once per side under Callgrind (gate/where-step.ts): the instruction suite's
// command staged and in its fixed environment, hyperfine's command line through `sh -c` with
// every process it starts. Asserted: what the rule confirms under load (×10 work, and an exact
// count), and the plumbing — the profile names the program's `main`, the shell line's processes
// are all in the file, both runs are compared whole.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitAll, git } from "./support/git-repo.ts";
import { runCli, runRepo, type RunTarget } from "./support/cli.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";

const LONG = 600_000;
const scratch = mkdtempSync(path.join(tmpdir(), "benchgate-where-commands-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// `tiny N`: N rounds of FNV-1a, a fixed amount of work, in a function of its own.
const PROGRAM = `#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static unsigned long work(long n) {
  unsigned long h = 1469598103934665603UL;
  for (long i = 0; i < n; i++) { h ^= (unsigned long)i; h *= 1099511628211UL; }
  return h;
}
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  printf("%lu\\n", work(n) & 1);
  return 0;
}
`;

const CONFIG = `version: 1
rounds: 3
build:
  - ["cc", "-O2", "-g", "-o", "{target}/tiny", "tiny.c"]
suites:
  - name: cli
    kind: hyperfine
    warmup: 1
    runs: 10
    commands:
      - name: piped
        command: "{target}/tiny 3000000 | cat"
  - name: startup
    kind: instructions
    commands:
      - name: counted
        command: ["{target}/tiny", "200000"]
`;

function repo(name = "repo"): RunTarget {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "tiny.c"), PROGRAM);
  writeFileSync(path.join(dir, "benchgate.yml"), CONFIG);
  git(dir, ["init", "--quiet"]);
  commitAll(dir, "base");
  writeFileSync(path.join(dir, "tiny.c"), PROGRAM.replace("i < n; i++", "i < 10 * n; i++"));
  commitAll(dir, "head: ten times the work");
  return { dir, out: path.join(scratch, `${name}-out`), cache: path.join(scratch, "cache") };
}

describe(
  "Where for command suites (real hyperfine, Cachegrind and Callgrind)",
  { timeout: LONG },
  () => {
    it("profiles hyperfine's and the instruction suite's regressions and names the function", () => {
      const r = repo();
      const result = runRepo(r);
      expect(result.status, result.stderr).toBe(1);
      const report = JSON.parse(
        readFileSync(path.join(r.out, "report.json"), "utf8"),
      ) as BenchReport;
      const entry = (id: string) => report.benchmarks.find((b) => b.id === id);
      for (const [id, reason] of [
        ["counted", "a command's instructions, one run on each side"],
        ["piped", "a command line's instructions, one run on each side, its processes summed"],
      ] as const) {
        const e = entry(id);
        expect(e?.verdict, `${id}: ${result.stderr}`).toBe("regressed");
        const diff = e?.where?.diff;
        expect(diff, `${id}: ${e?.where?.note ?? ""}`).toBeDefined();
        expect(diff?.basis).toEqual({ kind: "per-run", reason });
        // Ten times the loop: about ten times the instructions, nearly all of them in work().
        expect(diff?.total.relative).toBeGreaterThan(5);
        expect(diff?.self[0]?.name).toBe("work");
        expect(diff?.self[0]?.object).toBe("tiny");
        for (const file of Object.values(e?.where?.files ?? {}))
          expect(readFileSync(path.join(r.out, file), "utf8").length).toBeGreaterThan(0);
      }
      // The shell line started the shell, tiny and cat: one part each in the profile.
      const piped = entry("piped")?.where?.files?.head ?? "";
      const parts = readFileSync(path.join(r.out, piped), "utf8").match(/^version: /gm) ?? [];
      expect(parts.length).toBeGreaterThanOrEqual(3);
      const comment = readFileSync(path.join(r.out, "comment.md"), "utf8");
      expect(comment).toContain("Where it regressed");
      expect(comment).toContain("<code>work</code>");
      expect(result.stderr).toMatch(/where: 2 regressions profiled in/);
      // The worktrees the commands ran in are gone once the step is done.
      expect(git(r.dir, ["worktree", "list", "--porcelain"]).match(/^worktree /gm)).toHaveLength(1);
    });

    it("a sharded run: each shard profiles its own, the merge shows what it confirms", () => {
      const r = repo("sharded");
      const outs = [1, 2].map((i) => path.join(scratch, `shard-${i}`));
      outs.forEach((out, i) => {
        const shard = runRepo({ ...r, out }, ["--shard", `${i + 1}/2`]);
        expect(shard.status, shard.stderr).toBe(0);
      });
      const merged = path.join(scratch, "merged");
      const m = runCli(["merge", ...outs, "--repo", r.dir, "--out", merged]);
      expect(m.status, m.stderr).toBe(1);
      const report = JSON.parse(
        readFileSync(path.join(merged, "report.json"), "utf8"),
      ) as BenchReport;
      const files = new Set<string>();
      for (const id of ["piped", "counted"]) {
        const e = report.benchmarks.find((b) => b.id === id);
        expect(e?.verdict, m.stderr).toBe("regressed");
        expect(e?.where?.from_measure_job, e?.where?.note).toBe(true);
        expect(e?.where?.diff?.self[0]?.name).toBe("work");
        // Each shard numbers its files in its own range: no two shards' files share a name.
        const head = e?.where?.files?.head ?? "";
        expect(files.has(head)).toBe(false);
        files.add(head);
        const inShard = outs.filter((out) => existsSync(path.join(out, head)));
        expect(inShard).toHaveLength(1);
      }
      expect(readFileSync(path.join(merged, "comment.md"), "utf8")).toContain(
        "Profiled by the measure job",
      );
    });
  },
);
