// `schedule: pairs` end to end, plumbing only (never timings): real Criterion and hyperfine on the
// demo crate, an A/A run of two rounds. Each benchmark runs in processes of its own, the built
// bench executable run directly, and the rounds still write the two summaries per round that
// compare, critcmp and everything after them read.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BenchSummary } from "../src/schemas/summary.gen.ts";
import type { TimingsDocument } from "../src/runner/step-timings.ts";
import { runRepo } from "./support/cli.ts";
import { demoTestConfig, TEST_CACHE } from "./support/demo-test-config.ts";
import { throwAwayRepo } from "./support/git-repo.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-pairs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const read = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

describe(
  "schedule: pairs on the demo crate (real Criterion and hyperfine)",
  { timeout: 900_000 },
  () => {
    it("runs each benchmark's base and head as processes of its own and writes the usual summaries", () => {
      const root = path.join(scratch, "aa");
      mkdirSync(root, { recursive: true });
      const config = path.join(root, "benchgate.test.yml");
      // demoTestConfig's Criterion args set all three time flags: they are kept, and said so.
      writeFileSync(config, `${demoTestConfig({ rounds: 2 })}schedule: pairs\n`);
      const repo = throwAwayRepo(path.join(root, "repo"));
      const out = path.join(root, "out");
      const result = runRepo({ dir: repo.dir, out, cache: TEST_CACHE, config }, [
        "--fail-threshold",
        "1000%",
      ]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        "suite micro (criterion, pairs): 2 benchmarks listed, one per process; its own --warm-up-time, --measurement-time, --sample-size from the config kept",
      );
      expect(result.stderr).toContain(
        "suite cli (hyperfine, pairs): one command per process; its own --warmup, --runs from the config kept",
      );
      // The cost, said once the benchmarks are listed and before round 1 (never its numbers).
      const lines = result.stderr.split("\n");
      const plan = lines.findIndex((l) =>
        /\] plan: 3 benchmarks in 2 suites, about \d+:\d\d a round: 2 rounds, about \d+:\d\d \(/.test(
          l,
        ),
      );
      expect(plan, result.stderr).toBeGreaterThan(0);
      expect(lines.findIndex((l) => l.includes("round 1/2 · "))).toBeGreaterThan(plan);
      for (const side of ["base", "head"])
        for (const round of [1, 2]) {
          const s = read<BenchSummary>(path.join(out, "summaries", `${side}-${round}.json`));
          expect(s.benchmarks.map((b) => b.id).sort(), `${side}-${round}`).toEqual([
            "checksum/fnv1a",
            "help",
            "normalize",
          ]);
          expect(existsSync(path.join(out, "raw/cli", `${side}-${round}.1.json`))).toBe(true);
        }
      // Base ran first in round 1, head in round 2.
      const started = (name: string): string =>
        read<BenchSummary>(path.join(out, "summaries", `${name}.json`)).started_at ?? "";
      expect(started("base-1") < started("head-1")).toBe(true);
      expect(started("head-2") < started("base-2")).toBe(true);
      // One process per benchmark, side and round, each the bench executable itself.
      const timings = read<TimingsDocument>(path.join(out, "timings.json"));
      expect(timings.steps.find((s) => s.step === "bench executable")?.count).toBe(2 * 2 * 2);
      expect(readFileSync(path.join(out, "critcmp.txt"), "utf8")).toContain("normalize");
    });
  },
);
