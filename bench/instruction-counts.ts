// Detection quality of instruction counts on this machine: N A/A runs of the demo crate's
// instruction-count suites (its benchgate.yml's gungraun and instructions suites, nothing else)
// with `benchgate run`, then a +1 % change injected into each run's head counts.
//   node bench/instruction-counts.ts [--runs 20] [--rounds 2]
// Reports: false alarms (regressed or improved) over the A/A runs, whether every count was the
// same in every round, side and run (and the spreads when not), and how many injected +1 % and
// +0.5 % changes the count rule flags (each injection is one benchmark's head counts × 1.01,
// rounded up, re-decided by the same compare() the gate uses).
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse, stringify } from "yaml";
import { compare } from "../action/src/core/compare-summaries.ts";
import type { SourcedSummary } from "../action/src/core/pairing.ts";
import { resolveSettings } from "../action/src/core/settings.ts";
import type { BenchReport } from "../action/src/schemas/report.gen.ts";
import type { BenchSummary } from "../action/src/schemas/summary.gen.ts";
import { option, ROOT, writeResult } from "./support.ts";
import { git } from "../action/test/support/git-repo.ts";

const runs = Number(option("runs", "20"));
const rounds = Number(option("rounds", "2"));
const work = path.join(ROOT, ".benchgate/bench-counts");
const CRATE = path.join(ROOT, "examples/demo-crate");

/** The demo's config with only its count suites, and the build its commands need. */
function countConfig(): string {
  const doc = parse(readFileSync(path.join(CRATE, "benchgate.yml"), "utf8")) as {
    build?: unknown;
    suites: { kind: string }[];
  };
  const suites = doc.suites.filter((s) => s.kind === "gungraun" || s.kind === "instructions");
  if (suites.length === 0) throw new Error("the demo's benchgate.yml has no count suites");
  return stringify({ version: 1, rounds, build: doc.build, suites });
}

function setUp(): { repo: string; config: string } {
  rmSync(path.join(work, "repo"), { recursive: true, force: true });
  const repo = path.join(work, "repo");
  cpSync(CRATE, repo, { recursive: true, filter: (s) => !s.includes(`${path.sep}target`) });
  git(repo, ["init", "--quiet"]);
  git(repo, ["add", "--all"]);
  git(repo, ["commit", "--quiet", "-m", "base"]);
  git(repo, ["commit", "--quiet", "--allow-empty", "-m", "head (A/A)"]);
  const config = path.join(work, "counts.yml");
  writeFileSync(config, countConfig());
  return { repo, config };
}

function readSummaries(out: string, side: "base" | "head"): SourcedSummary[] {
  const dir = path.join(out, "summaries");
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${side}-`) && f.endsWith(".json"))
    .map((f) => ({
      source: f,
      summary: JSON.parse(readFileSync(path.join(dir, f), "utf8")) as BenchSummary,
    }));
}

/** Head's counts of `id` scaled by `factor` (rounded up: a count is an integer). */
function inject(head: SourcedSummary[], id: string, factor: number): SourcedSummary[] {
  return head.map((f) => ({
    ...f,
    summary: {
      ...f.summary,
      benchmarks: f.summary.benchmarks.map((b) => {
        if (b.id !== id) return b;
        const v = Math.ceil((b.estimates.median as number) * factor);
        return { ...b, samples: [v], estimates: { median: v } };
      }),
    },
  }));
}

const { repo, config } = setUp();
const settings = resolveSettings();
const falseAlarms: string[] = [];
const statuses = new Map<string, number>();
const values = new Map<string, Set<number>>();
const spreads: { id: string; base: number | null; head: number | null }[] = [];
const found = { plus1: 0, plus05: 0, injections: 0 };
const wall: number[] = [];
for (let i = 1; i <= runs; i++) {
  // One --out for every run: the staged binaries' path is then the same in every run too.
  const out = path.join(work, "out");
  rmSync(out, { recursive: true, force: true });
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [
      "action/src/cli/index.ts",
      "run",
      "--repo",
      repo,
      "--base",
      "HEAD~1",
      "--head",
      "HEAD",
      "--config",
      config,
      "--out",
      out,
      "--cache-dir",
      path.join(work, "cache"),
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  wall.push(Date.now() - started);
  if (r.status !== 0 && r.status !== 1) {
    process.stderr.write(r.stderr);
    throw new Error(`benchgate run exited with ${String(r.status)}`);
  }
  const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as BenchReport;
  for (const e of report.benchmarks) {
    if (e.secondary === true) continue;
    const status = e.determinism?.status ?? "timing";
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (e.verdict === "regressed" || e.verdict === "improved")
      falseAlarms.push(`run ${i}: ${e.id} ${e.verdict}`);
    const seen = values.get(e.id) ?? new Set<number>();
    for (const v of [...(e.base?.per_round ?? []), ...(e.head?.per_round ?? [])]) seen.add(v);
    values.set(e.id, seen);
    if (e.determinism?.status === "non-deterministic")
      spreads.push({ id: e.id, base: e.determinism.spread.base, head: e.determinism.spread.head });
  }
  const base = readSummaries(out, "base");
  const head = readSummaries(out, "head");
  for (const e of report.benchmarks.filter(
    (b) => b.secondary !== true && b.determinism?.status === "deterministic",
  )) {
    found.injections++;
    const up = compare(base, inject(head, e.id, 1.01), { settings });
    if (up.benchmarks.find((b) => b.id === e.id)?.verdict === "regressed") found.plus1++;
    const half = compare(base, inject(head, e.id, 1.005), { settings });
    if (half.benchmarks.find((b) => b.id === e.id)?.verdict === "regressed") found.plus05++;
  }
  process.stderr.write(`run ${i}/${runs}: ${report.verdict}, ${(wall[i - 1] ?? 0) / 1000} s\n`);
}
writeResult("instruction-counts", {
  command: `node bench/instruction-counts.ts --runs ${runs} --rounds ${rounds}`,
  runs,
  rounds,
  primary_entries_by_status: Object.fromEntries(statuses),
  false_alarms: falseAlarms.length,
  false_alarm_list: falseAlarms,
  distinct_values_per_benchmark: Object.fromEntries([...values].map(([id, s]) => [id, s.size])),
  non_deterministic_spreads: spreads,
  injected_plus_1_percent: `${found.plus1} of ${found.injections} flagged regressed`,
  injected_plus_0_5_percent: `${found.plus05} of ${found.injections} flagged regressed (below the 1 % threshold)`,
  wall_seconds_per_run: wall.map((ms) => Math.round(ms / 100) / 10),
});
