// Sharded runs end to end (docs/shards.md): `benchgate run --shard i/3` three times, one after
// another, then `benchgate merge`, against one unsharded `benchgate run` of the same repository.
// The benchmarks replay recorded data (bs58 0.5.1's Criterion tree under bench/data, five rounds
// of both sides, with a few head benchmarks slowed down or sped up by far more than the recording's noise,
// which reaches ±30 % between identical runs)
// through five custom suites, so the sharded and the unsharded run see the same numbers and must
// reach the same verdicts, benchmark by benchmark; merged in any order, the report is the same.
// A missing shard and overlapping shards are errors. A second part runs real Criterion: the
// demo crate's benchmarks split over two shards by exact-id filters, each measured exactly once.
import {
  cpSync,
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
import { STOP_LABEL } from "../src/core/sequential.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";
import type { BenchShard } from "../src/schemas/shard.gen.ts";
import type { BenchSummary, Benchmark } from "../src/schemas/summary.gen.ts";
import { expectInputError, ROOT, runCli, runRepo, type CliResult } from "./support/cli.ts";
import { demoTestConfig, TEST_CACHE } from "./support/demo-test-config.ts";
import { commitAll, git, throwAwayRepo } from "./support/git-repo.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-shards-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const RECORDED = path.join(ROOT, "bench/data/aa-bs58-0.5.1/criterion");
const ROUNDS = 5;
const SUITES = 5;
/** Head benchmarks (by position in the recorded list) made slower or faster, far beyond noise. */
const SCALED: ReadonlyMap<number, number> = new Map([
  [0, 3],
  [7, 2.5],
  [16, 4],
  [23, 0.3],
]);

const REPLAY = `// Replays recorded benchmarks: part P of PARTS of the side and round its {out} folder names.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
const [out, part, parts] = process.argv.slice(2);
const [, side, round] = /^(base|head)-(\\d+)$/.exec(path.basename(out));
const all = JSON.parse(readFileSync("replay.json", "utf8"))[side + "-" + round];
const benchmarks = all.filter((_, i) => i % Number(parts) === Number(part));
writeFileSync(path.join(out, "summary.json"), JSON.stringify({ schema_version: 1, side, round: Number(round), benchmarks }));
`;

function scaleBenchmark(b: Benchmark, factor: number): Benchmark {
  const scale = (e: unknown): unknown =>
    typeof e === "number"
      ? e * factor
      : e !== null && typeof e === "object"
        ? Object.fromEntries(Object.entries(e).map(([k, v]) => [k, k === "level" ? v : scale(v)]))
        : e;
  return {
    ...b,
    ...(b.samples === undefined ? {} : { samples: b.samples.map((s) => s * factor) }),
    estimates: scale(b.estimates) as Benchmark["estimates"],
  };
}

/** The recorded rounds as `side-round` → benchmarks, head's scaled as SCALED says. */
function recordedRounds(dir: string): Record<string, Benchmark[]> {
  const rounds: Record<string, Benchmark[]> = {};
  for (const side of ["base", "head"] as const)
    for (let r = 1; r <= ROUNDS; r++) {
      const file = path.join(dir, `${side}-${r}.json`);
      const ingested = runCli(
        ["ingest", "criterion", RECORDED, "--baseline", `${side}-${r}`, "-o", file],
        { cwd: dir },
      );
      expect(ingested.status, ingested.stderr).toBe(0);
      const { benchmarks } = JSON.parse(readFileSync(file, "utf8")) as BenchSummary;
      rounds[`${side}-${r}`] = benchmarks.map((b, i) =>
        side === "head" && SCALED.has(i) ? scaleBenchmark(b, SCALED.get(i) ?? 1) : b,
      );
    }
  return rounds;
}

function replayConfig(rounds: number | "auto"): string {
  const suites = Array.from(
    { length: SUITES },
    (_, k) => `  - name: s${k}
    kind: custom
    command: [${JSON.stringify(process.execPath)}, "replay.mjs", "{out}", "${k}", "${SUITES}"]
    output: summary.json
`,
  ).join("");
  return `version: 1\nrounds: ${rounds}\nsuites:\n${suites}`;
}

let repo = "";
let config = "";

function runTo(out: string, extra: readonly string[] = [], cfg = config): CliResult {
  return runRepo({ dir: repo, out, cache: path.join(scratch, "cache"), config: cfg }, extra);
}

/** `benchgate merge DIRS --config … --out scratch/NAME`. */
function mergeTo(name: string, dirs: readonly string[], extra: readonly string[] = []): CliResult {
  return runCli([
    "merge",
    ...dirs,
    "--config",
    config,
    "--out",
    path.join(scratch, name),
    ...extra,
  ]);
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;
const read = (file: string): BenchReport => readJson<BenchReport>(file);

/**
 * A copy of a shard's folder at `to`, with its shard.json and every summary rewritten by
 * `edit`: a forged or damaged artifact.
 */
function editedCopy(
  from: string,
  to: string,
  edit: {
    readonly shard?: (doc: BenchShard) => BenchShard;
    readonly summary?: (doc: BenchSummary) => BenchSummary;
  },
): string {
  cpSync(from, to, { recursive: true });
  const rewrite = <T>(file: string, change: ((doc: T) => T) | undefined): void => {
    if (change !== undefined) writeFileSync(file, JSON.stringify(change(readJson<T>(file))));
  };
  rewrite(path.join(to, "shard.json"), edit.shard);
  for (const name of readdirSync(path.join(to, "summaries")))
    rewrite(path.join(to, "summaries", name), edit.summary);
  return to;
}
const verdicts = (r: BenchReport): Record<string, string> =>
  Object.fromEntries(r.benchmarks.map((b) => [b.id, b.verdict]));
/**
 * The report without what differs between runs by design: when, where, on which shard, and
 * which run said Where (the test compares that on its own).
 */
function comparable(r: BenchReport): unknown {
  const rest: Partial<BenchReport> = { ...r };
  for (const key of ["generated_at", "environment", "rounds", "shards"] as const) delete rest[key];
  // Lists follow the order the summaries were read in, which is by shard once merged; so does
  // which suite's prior and order effect the noise block shows (the first suite's).
  const sorted = <T>(list: readonly T[]): T[] =>
    [...list].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  const noise: Partial<BenchReport["noise"]> = { ...r.noise };
  for (const key of ["prior_sd", "prior_df", "period_effect"] as const) delete noise[key];
  return {
    ...rest,
    noise,
    benchmarks: sorted(
      r.benchmarks.map((b) => {
        const entry: Partial<BenchReport["benchmarks"][number]> = { ...b };
        delete entry.where;
        return entry;
      }),
    ),
    smells: sorted(r.smells),
    suites: sorted(r.suites ?? []),
  };
}

describe("sharded runs of recorded data", { timeout: 600_000 }, () => {
  const shardOut = (i: number): string => path.join(scratch, `shard-${i}`);
  let whole: BenchReport;
  let merged: BenchReport;

  beforeAll(() => {
    const data = path.join(scratch, "recorded");
    mkdirSync(data, { recursive: true });
    const replay = JSON.stringify(recordedRounds(data));
    repo = path.join(scratch, "repo");
    mkdirSync(repo);
    git(repo, ["init", "--quiet"]);
    writeFileSync(path.join(repo, "replay.mjs"), REPLAY);
    writeFileSync(path.join(repo, "replay.json"), replay);
    commitAll(repo, "base");
    commitAll(repo, "head");
    config = path.join(scratch, "benchgate.yml");
    writeFileSync(config, replayConfig(ROUNDS));
    const all = runTo(path.join(scratch, "whole"));
    expect(all.status, all.stderr).toBe(1);
    whole = read(path.join(scratch, "whole/report.json"));
    for (let i = 1; i <= 3; i++) {
      const shard = runTo(shardOut(i), ["--shard", `${i}/3`]);
      expect(shard.status, shard.stderr).toBe(0);
      expect(shard.stdout).toMatch(
        new RegExp(`shard ${i}/3: \\d+ benchmarks measured in 5 rounds`),
      );
    }
    const m = mergeTo("m1", [shardOut(1), shardOut(2), shardOut(3)]);
    expect(m.status, m.stderr).toBe(1);
    merged = read(path.join(scratch, "m1/report.json"));
  }, 600_000);

  it("splits the suites over the shards, each suite on one, none twice", () => {
    const suitesOf = (i: number): Set<string> => {
      const s = JSON.parse(
        readFileSync(path.join(shardOut(i), "summaries/head-1.json"), "utf8"),
      ) as BenchSummary;
      expect(s.shard).toEqual({ index: i, count: 3 });
      return new Set(s.benchmarks.map((b) => b.suite));
    };
    const sets = [1, 2, 3].map(suitesOf);
    expect(sets.reduce((n, s) => n + s.size, 0)).toBe(SUITES);
    expect(new Set(sets.flatMap((s) => [...s])).size).toBe(SUITES);
    for (const s of sets) expect(s.size).toBeGreaterThanOrEqual(1);
  });

  it("gives the verdicts of the unsharded run, benchmark by benchmark", () => {
    expect(merged.verdict).toBe(whole.verdict);
    expect(verdicts(merged)).toEqual(verdicts(whole));
    expect(merged.counts.regressed).toBeGreaterThanOrEqual(3);
    expect(merged.counts.improved).toBeGreaterThanOrEqual(1);
    // Each suite ran whole on one machine: the same numbers, not only the same verdicts.
    expect(comparable(merged)).toEqual(comparable(whole));
    expect(merged.settings.rounds).toBe(ROUNDS);
    expect(merged.rounds).toHaveLength(ROUNDS * 3);
    expect(merged.shards?.map((s) => s.index)).toEqual([1, 2, 3]);
    expect(merged.shards?.reduce((n, s) => n + s.benchmarks, 0)).toBe(whole.benchmarks.length);
  });

  it("shows each shard's Where on the regressions the merge confirms, marked as a measure job's", () => {
    // Every shard decided its own benchmarks provisionally and wrote a Where (here the custom
    // suites' note) for each regression it saw; the merge keeps those it confirms itself.
    const wheresOf = (r: BenchReport) =>
      Object.fromEntries(
        r.benchmarks.flatMap((b) => (b.where === undefined ? [] : [[b.id, b.where]])),
      );
    const expected = Object.fromEntries(
      Object.entries(wheresOf(whole)).map(([id, w]) => [id, { ...w, from_measure_job: true }]),
    );
    expect(Object.keys(expected).length).toBe(merged.counts.regressed);
    expect(wheresOf(merged)).toEqual(expected);
    const shardWhere = (i: number) =>
      (JSON.parse(readFileSync(path.join(shardOut(i), "shard.json"), "utf8")) as BenchShard)
        .where ?? [];
    expect([1, 2, 3].flatMap(shardWhere).length).toBeGreaterThanOrEqual(merged.counts.regressed);
  });

  it("writes the same report whatever order the shards are given in", () => {
    const again = mergeTo("m2", [shardOut(3), shardOut(1), shardOut(2)]);
    expect(again.status, again.stderr).toBe(1);
    const reordered = read(path.join(scratch, "m2/report.json"));
    expect({ ...reordered, generated_at: "" }).toEqual({ ...merged, generated_at: "" });
  });

  it("refuses a missing shard: never a pass on the shards that came back", () => {
    const line = expectInputError(mergeTo("m3", [shardOut(1), shardOut(3)]));
    expect(line).toMatch(/shard 2\/3 is missing/);
    const trusted = expectInputError(
      mergeTo("m4", [shardOut(1), shardOut(2), shardOut(3)], ["--shards", "4"]),
    );
    expect(trusted).toMatch(/the run was split into 4 shards/);
  });

  it("refuses overlapping shards: the same shard twice, or one benchmark from two shards", () => {
    const twice = expectInputError(mergeTo("m5", [shardOut(1), shardOut(1), shardOut(2)]));
    expect(twice).toMatch(/shard 1\/3 is given twice/);
    // A copy of shard 1 that says it is shard 3: its benchmarks are shard 1's.
    const forged = editedCopy(shardOut(1), path.join(scratch, "forged"), {
      shard: (d) => ({ ...d, index: 3 }),
      summary: (d) => ({ ...d, shard: { index: 3, count: 3 } }),
    });
    const overlap = expectInputError(mergeTo("m6", [shardOut(1), shardOut(2), forged]));
    expect(overlap).toMatch(
      /was measured by shard 1\/3 .* and shard 3\/3: the shards' outputs overlap/,
    );
  });

  it("refuses a shard of other commits, even with the same split", () => {
    const other = path.join(scratch, "other-commits");
    cpSync(shardOut(3), other, { recursive: true });
    const head = JSON.parse(readFileSync(path.join(other, "shard.json"), "utf8")) as {
      head: string;
    };
    const stale = "0".repeat(40);
    for (const file of [
      "shard.json",
      ...Array.from({ length: ROUNDS }, (_, r) => `summaries/head-${r + 1}.json`),
    ]) {
      const at = path.join(other, file);
      writeFileSync(at, readFileSync(at, "utf8").replaceAll(head.head, stale));
    }
    const line = expectInputError(mergeTo("m8", [shardOut(1), shardOut(2), other]));
    expect(line).toMatch(
      /shard 3\/3 measured base [0-9a-f]{12} and head 000000000000, .*: not one run/,
    );
  });

  it("refuses a summary whose shard tag is not its folder's", () => {
    const odd = path.join(scratch, "odd");
    cpSync(shardOut(2), odd, { recursive: true });
    const file = path.join(odd, "summaries/base-2.json");
    const doc = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...doc, shard: { index: 1, count: 3 } }));
    const line = expectInputError(mergeTo("m7", [shardOut(1), odd, shardOut(3)]));
    expect(line).toMatch(/says it is shard 1\/3, but its folder holds shard 2\/3/);
  });

  it("refuses a shard whose summaries hold none of the units its shard.json says it measured", () => {
    const partial = editedCopy(shardOut(2), path.join(scratch, "partial"), {
      summary: (d) => ({ ...d, benchmarks: [] }),
    });
    const { units } = readJson<BenchShard>(path.join(partial, "shard.json"));
    expect(units.mine).toBeGreaterThanOrEqual(1);
    const line = expectInputError(mergeTo("m9", [shardOut(1), partial, shardOut(3)]));
    expect(line).toMatch(
      new RegExp(`shard 2/3 measured none of its ${units.mine} units? \\(missing: suite "s\\d"`),
    );
    expect(existsSync(path.join(scratch, "m9/report.json"))).toBe(false);
  });

  it("refuses a lone shard relabelled 1/1: its shard.json says it is one of 3", () => {
    const lone = editedCopy(shardOut(1), path.join(scratch, "lone"), {
      shard: (d) => ({ ...d, index: 1, count: 1 }),
      summary: (d) => ({ ...d, shard: { index: 1, count: 1 } }),
    });
    const line = expectInputError(mergeTo("m10", [lone]));
    expect(line).toMatch(
      /says it is shard 1\/1, but its units were dealt to 3 shards: it is one shard of a larger split/,
    );
    expect(existsSync(path.join(scratch, "m10/report.json"))).toBe(false);
  });

  it("runs sequential rounds per shard, and merge decides over all shards", () => {
    // rounds: auto with the recording's five rounds as max: each shard runs its own looks from
    // round 3 and stops on its own; merge replays them and decides once.
    const auto = path.join(scratch, "auto.yml");
    writeFileSync(auto, `${replayConfig("auto")}min-rounds: 3\nmax-rounds: ${ROUNDS}\n`);
    const dirs = [1, 2].map((i) => path.join(scratch, `auto-${i}`));
    const lastLooks = dirs.map((dir, i) => {
      const shard = runTo(dir, ["--shard", `${i + 1}/2`], auto);
      expect(shard.status, shard.stderr).toBe(0);
      const doc = readJson<BenchShard>(path.join(dir, "shard.json"));
      expect(doc.sequential).toEqual({ min_rounds: 3, max_rounds: ROUNDS });
      expect(doc.rounds).toBeGreaterThanOrEqual(3);
      expect(doc.rounds).toBeLessThanOrEqual(ROUNDS);
      // The shard's last look: "after round 4: 0 of 35 benchmarks still open (2 regressed, …)".
      const looks = [
        ...shard.stderr.matchAll(
          /after round (\d+): (\d+) of (\d+) benchmarks still open(?: \((.*)\))?/g,
        ),
      ];
      const last = looks.at(-1);
      expect(last, shard.stderr).toBeDefined();
      expect(Number(last?.[1])).toBe(doc.rounds);
      const ids = new Set(
        readJson<BenchSummary>(path.join(dir, "summaries/head-1.json")).benchmarks.map((b) => b.id),
      );
      return { ids, said: last?.[4] ?? "", open: Number(last?.[2]) };
    });
    const m = runCli(["merge", ...dirs, "--config", auto, "--out", path.join(scratch, "m-auto")]);
    expect(m.status === 0 || m.status === 1, m.stderr).toBe(true);
    expect(m.stdout).toMatch(/merged 2 shards \((\d+ rounds each|rounds \d+, \d+)\)/);
    const report = read(path.join(scratch, "m-auto/report.json"));
    expect(report.settings.method).toMatch(/sequential rounds/);
    expect(report.benchmarks).toHaveLength(whole.benchmarks.length);
    // Each benchmark stopped where and why its own shard stopped it on the run: the merge
    // replays the shard's looks, it does not take them anew over all shards.
    for (const { ids, said, open } of lastLooks) {
      expect(open).toBe(0);
      const counts = new Map<string, number>();
      for (const b of report.benchmarks.filter((x) => ids.has(x.id))) {
        const label = b.stopped === undefined ? "?" : STOP_LABEL[b.stopped.reason];
        counts.set(label, (counts.get(label) ?? 0) + 1);
      }
      const parsed = new Map(
        said
          .split(", ")
          .filter((part) => part !== "")
          .map((part) => [part.replace(/^\d+ /, ""), Number(part.split(" ")[0])] as const),
      );
      expect(counts).toEqual(parsed);
    }
    // One decision over all: what it calls a change is a change the fixed rounds found too
    // (the recording's noise reaches ±30 %, so three rounds may leave a ×2.5 inconclusive).
    const called = (r: BenchReport, v: string): string[] =>
      r.benchmarks.filter((b) => b.verdict === v).map((b) => b.id);
    expect(called(report, "regressed").length + called(report, "improved").length).toBeGreaterThan(
      0,
    );
    for (const v of ["regressed", "improved"])
      for (const id of called(report, v)) expect(called(whole, v)).toContain(id);
    // A shard.json that claims another design than its summaries were run with is refused.
    const other = editedCopy(dirs[1] as string, path.join(scratch, "auto-2-other"), {
      shard: (doc) => ({ ...doc, sequential: { min_rounds: 4, max_rounds: ROUNDS } }),
    });
    expect(expectInputError(runCli(["merge", dirs[0] as string, other, "--config", auto]))).toMatch(
      /has sequential min_rounds 3, max_rounds 5, but .* min-rounds 4 and max-rounds 5/,
    );
  });

  it("refuses a malformed --shard", () => {
    expect(expectInputError(runTo(path.join(scratch, "bad"), ["--shard", "3/2"]))).toMatch(
      /--shard must be I\/N with 1 ≤ I ≤ N ≤ 64/,
    );
  });
});

describe("a sharded run of real Criterion benchmarks", { timeout: 900_000 }, () => {
  it("splits a suite by exact ids: every benchmark measured by exactly one shard", () => {
    const root = path.join(scratch, "criterion");
    mkdirSync(root, { recursive: true });
    const cfg = path.join(root, "benchgate.yml");
    writeFileSync(cfg, demoTestConfig({ rounds: 2, filter: "^(parse|lookup)/" }));
    const demo = throwAwayRepo(path.join(root, "repo"));
    const outs = [1, 2].map((i) => path.join(root, `shard-${i}`));
    outs.forEach((out, i) => {
      const result = runRepo({ dir: demo.dir, out, cache: TEST_CACHE, config: cfg }, [
        "--shard",
        `${i + 1}/2`,
      ]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        new RegExp(`shard ${i + 1}/2: listing the benchmarks of micro`),
      );
    });
    const ids = outs.map((out) => {
      const s = JSON.parse(
        readFileSync(path.join(out, "summaries/base-2.json"), "utf8"),
      ) as BenchSummary;
      return s.benchmarks.map((b) => b.id);
    });
    // What `cargo bench --bench demo -- --list "^(parse|lookup)/"` prints for the demo crate.
    const listed = ["parse/100", "parse/1000", "parse/10000", "lookup/binary", "lookup/linear"];
    const all = [...(ids[0] ?? []), ...(ids[1] ?? [])];
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...listed, "help"].sort());
    // Golden outputs are checked once, by shard 1.
    const golden = (out: string): unknown[] =>
      (JSON.parse(readFileSync(path.join(out, "shard.json"), "utf8")) as { golden: unknown[] })
        .golden;
    expect(golden(outs[0] as string)).toHaveLength(2);
    expect(golden(outs[1] as string)).toHaveLength(0);
    const merged = runCli(["merge", ...outs, "--config", cfg, "--out", path.join(root, "merged")]);
    expect([0, 1], merged.stderr).toContain(merged.status);
    const report = read(path.join(root, "merged/report.json"));
    expect(report.benchmarks.map((b) => b.id).sort()).toEqual(all.sort());
    expect(report.golden).toHaveLength(2);
    expect(readFileSync(path.join(root, "merged/comment.md"), "utf8")).toMatch(/Shards/);
  });
});

describe("a filtered sharded run", { timeout: 600_000 }, () => {
  // The filter keeps `a` alone, so the budget on `c` (a hyperfine command) names a benchmark the
  // run never ran: unchecked, not broken, in a sharded run as in one on one machine. `a` is an
  // exact instruction count (Valgrind) of a program both sides run alike, so both runs reach
  // the same verdict whatever the machine's load, and the same budget results to the digit.
  const FILTERED = `version: 1
rounds: 2
suites:
  - name: cli
    kind: hyperfine
    warmup: 1
    runs: 5
    commands:
      - name: b
        command: sleep 0.01
      - name: c
        command: sleep 0.01
  - name: counts
    kind: instructions
    commands:
      - name: a
        command: ["/bin/true"]
budgets:
  - benchmark: a
    instructions: "< 1G"
  - benchmark: c
    median: "< 1s"
`;

  it("decides like the same filtered unsharded run: budgets of benchmarks it never ran are not checked", () => {
    const root = path.join(scratch, "filtered");
    const dir = path.join(root, "repo");
    mkdirSync(dir, { recursive: true });
    git(dir, ["init", "--quiet"]);
    writeFileSync(path.join(dir, "benchgate.yml"), FILTERED);
    commitAll(dir, "base");
    writeFileSync(path.join(dir, "README"), "head changes nothing the benchmarks run\n");
    commitAll(dir, "head");
    const cache = path.join(root, "cache");
    const filter = ["--filter", "^a$"];
    const wholeOut = path.join(root, "whole");
    const whole = runRepo({ dir, out: wholeOut, cache }, filter);
    expect(whole.status, whole.stderr).toBe(0);
    const outs = [1, 2].map((i) => path.join(root, `shard-${i}`));
    outs.forEach((out, i) => {
      const r = runRepo({ dir, out, cache }, [...filter, "--shard", `${i + 1}/2`]);
      expect(r.status, r.stderr).toBe(0);
      const shard = readJson<BenchShard>(path.join(out, "shard.json"));
      expect(shard.filter).toBe("^a$");
      expect(shard.units.dealt).toEqual([{ shard: 1, members: [{ suite: "counts", id: "a" }] }]);
    });
    const m = runCli(["merge", ...outs, "--repo", dir, "--out", path.join(root, "merged")]);
    expect(m.status, m.stderr).toBe(0);
    const single = read(path.join(wholeOut, "report.json"));
    const merged = read(path.join(root, "merged/report.json"));
    expect(merged.verdict).toBe("pass");
    expect(merged.verdict).toBe(single.verdict);
    expect(verdicts(merged)).toEqual(verdicts(single));
    expect(verdicts(merged)).toEqual({ a: "unchanged" });
    expect(merged.budgets).toEqual(single.budgets);
    expect(merged.budgets.find((b) => b.benchmark === "c")).toMatchObject({
      ok: true,
      message: expect.stringMatching(/not checked: this run was filtered/) as unknown,
    });
    expect(merged.reasons).toEqual(single.reasons);
    // A shard of another filter is not part of this run.
    const other = editedCopy(outs[1] as string, path.join(root, "other-filter"), {
      shard: (d) => ({ ...d, filter: "^b$" }),
    });
    const line = expectInputError(
      runCli(["merge", outs[0] as string, other, "--repo", dir, "--out", path.join(root, "m2")]),
    );
    expect(line).toMatch(
      /shard 2\/2 ran with --filter "\^b\$", but shard 1\/2 \(.*\) ran with --filter "\^a\$": not one run/,
    );
  });
});
