// One run per side, on recorded real data (bench/data/aa-*): false alarms and detection when
// the noise comes from the default branch's history (compare --history) or from base, head, base
// in one job (--aba), next to what critcmp -t 5 and github-action-benchmark decide on the same
// pairs. Every recorded run is the same binary, so any flagged regression is a false alarm.
//
// The runs of a recording, in the order they ran, stand in for both the history and the PR:
// - history: a PR pair is two runs (base, head); the history is every other run, in order, as
//   single-run default-branch records. "same round" pairs are the two runs of one recorded round
//   (measured back to back, as one job measures base and head), both ways round; "all pairs"
//   is every ordered pair of runs.
// - aba: three consecutive runs (base, head, base).
// Injected: head's samples × factor on a random ~20 % of the suite (the rest must stay unflagged).
// Shock: head's whole run × 1.10 (every benchmark), as a busy moment of the machine would.
// Usage: node bench/one-run-noise.ts [--suite aa-bs58-0.5.1-k15] [--subsets 10]
import path from "node:path";
import { compare } from "../action/src/core/compare-summaries.ts";
import { resolveSettings } from "../action/src/core/settings.ts";
import { estimatePoint, type SourcedSummary } from "../action/src/core/pairing.ts";
import { median } from "../action/src/core/statistics.ts";
import { estimateHistoryNoise } from "../action/src/history/estimate-history-noise.ts";
import type { BenchHistory } from "../action/src/schemas/history.gen.ts";
import type { BenchReport } from "../action/src/schemas/report.gen.ts";
import { singleRunHistory } from "../action/test/support/single-run-history.ts";
import { rng } from "../action/test/support/synthetic.ts";
import { aaSuites, mapBenchmarks, scaleBenchmark, type AaSuite } from "./aa-data.ts";
import { critcmpRow, gabAlert } from "./peers.ts";
import { ROOT, option, writeResult } from "./support.ts";

const FACTORS = [1.25, 1.5, 2, 3] as const;
const subsets = Number(option("subsets", "10"));
const only = option("suite", "");
const settings = resolveSettings();

/** Every run of a recording (either side of every round), in the order they started. */
function runsInOrder(suite: AaSuite): SourcedSummary[] {
  const all = [...suite.base, ...suite.head];
  return all.sort(
    (a, b) => Date.parse(a.summary.started_at ?? "") - Date.parse(b.summary.started_at ?? ""),
  );
}

function as(run: SourcedSummary, side: "base" | "head", round: number): SourcedSummary {
  return { ...run, summary: { ...run.summary, side, round } };
}

/** Runs as single-run default-branch records, oldest first. */
function historyOf(runs: readonly SourcedSummary[]): BenchHistory {
  return singleRunHistory(runs.map((r) => r.summary));
}

function scaled(run: SourcedSummary, factor: (id: string) => number): SourcedSummary {
  return mapBenchmarks(run, (b) => scaleBenchmark(b, factor(b.id)));
}

function pick(ids: readonly string[], random: () => number): Set<string> {
  const n = Math.max(1, Math.round(ids.length * 0.2));
  const shuffled = [...ids].sort(() => random() - 0.5);
  return new Set(shuffled.slice(0, n));
}

interface Tally {
  trials: number;
  failed: number;
  flagged: number;
}

function tally(): Tally {
  return { trials: 0, failed: 0, flagged: 0 };
}

function count(t: Tally, report: BenchReport): void {
  t.trials++;
  if (report.verdict === "fail") t.failed++;
  t.flagged += report.counts.regressed;
}

interface Detection {
  slowed: number;
  found: number;
  unslowed: number;
  falseFlags: number;
}

/** Injected slowdowns over `trials` (base, head) pairs: share found, false flags elsewhere. */
function detect(
  trials: readonly {
    base: SourcedSummary[];
    head: SourcedSummary[];
    decide: (b: SourcedSummary[], h: SourcedSummary[]) => BenchReport;
  }[],
  ids: readonly string[],
  factor: number,
  seed: number,
): Detection {
  const random = rng(seed);
  const d: Detection = { slowed: 0, found: 0, unslowed: 0, falseFlags: 0 };
  for (const t of trials) {
    for (let s = 0; s < subsets; s++) {
      const slow = pick(ids, random);
      const head = t.head.map((h) => scaled(h, (id) => (slow.has(id) ? factor : 1)));
      const report = t.decide(t.base, head);
      for (const e of report.benchmarks) {
        if (slow.has(e.id)) {
          d.slowed++;
          if (e.verdict === "regressed") d.found++;
        } else {
          d.unslowed++;
          if (e.verdict === "regressed") d.falseFlags++;
        }
      }
    }
  }
  return d;
}

/** What critcmp -t 5 and github-action-benchmark at 110 % / 200 % flag on one pair. */
function peers(
  base: SourcedSummary,
  head: SourcedSummary,
): { critcmp5: number; gab110: number; gab200: number } {
  const byId = new Map(base.summary.benchmarks.map((b) => [b.id, b]));
  const out = { critcmp5: 0, gab110: 0, gab200: 0 };
  for (const h of head.summary.benchmarks) {
    const b = byId.get(h.id);
    if (b === undefined) continue;
    const mean = (x: typeof b) => estimatePoint(x.estimates.mean) ?? Number.NaN;
    const med = (x: typeof b) => estimatePoint(x.estimates.median) ?? Number.NaN;
    if (critcmpRow(mean(b), mean(h), 5) === "head-slower") out.critcmp5++;
    if (gabAlert(med(b), med(h), 1.1)) out.gab110++;
    if (gabAlert(med(b), med(h), 2)) out.gab200++;
  }
  return out;
}

const results: Record<string, unknown> = {};
for await (const suite of aaSuites(path.join(ROOT, "bench/data"), only)) {
  const runs = runsInOrder(suite);
  const n = runs.length;
  const ids = suite.ids;
  process.stderr.write(`${suite.name}: ${ids.length} benchmarks, ${n} runs\n`);

  // ── history: PR pair (i, j), history = every other run in order.
  const historyDecide = (i: number, j: number, window?: number) => {
    const rest = runs.filter((_, x) => x !== i && x !== j);
    const noise = estimateHistoryNoise(historyOf(rest), {
      fingerprint: undefined,
      ...(window === undefined ? {} : { window }),
    });
    return (b: SourcedSummary[], h: SourcedSummary[]) => compare(b, h, { settings, noise });
  };
  const sameRound: [number, number][] = [];
  for (let r = 1; r <= suite.rounds; r++) {
    const i = runs.findIndex((x) => x.summary.round === r && x.summary.side === "base");
    const j = runs.findIndex((x) => x.summary.round === r && x.summary.side === "head");
    sameRound.push([i, j], [j, i]);
  }
  const pairTrials = (pairs: readonly [number, number][], window?: number) =>
    pairs.map(([i, j]) => ({
      base: [as(runs[i] as SourcedSummary, "base", 1)],
      head: [as(runs[j] as SourcedSummary, "head", 1)],
      decide: historyDecide(i, j, window),
    }));
  const same = pairTrials(sameRound);
  const aaSame = tally();
  const peerSame = { critcmp5: 0, gab110: 0, gab200: 0, pairs: 0 };
  const shocked = tally();
  let medianRecords = 0;
  const mdes: number[] = [];
  for (const t of same) {
    const report = t.decide(t.base, t.head);
    count(aaSame, report);
    medianRecords = report.noise.history?.median_records ?? 0;
    if (report.noise.median_mde !== null) mdes.push(report.noise.median_mde);
    const p = peers(t.base[0] as SourcedSummary, t.head[0] as SourcedSummary);
    peerSame.critcmp5 += p.critcmp5 > 0 ? 1 : 0;
    peerSame.gab110 += p.gab110 > 0 ? 1 : 0;
    peerSame.gab200 += p.gab200 > 0 ? 1 : 0;
    peerSame.pairs++;
    count(
      shocked,
      t.decide(
        t.base,
        t.head.map((h) => scaled(h, () => 1.1)),
      ),
    );
  }
  const allPairs: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) allPairs.push([i, j]);
  const aaAll = tally();
  for (const t of pairTrials(allPairs)) count(aaAll, t.decide(t.base, t.head));
  const few: Record<string, unknown> = {};
  for (const window of [20]) {
    const trials = pairTrials(sameRound, window);
    const aa = tally();
    for (const t of trials) count(aa, t.decide(t.base, t.head));
    few[`window${window}`] = { aa, x2: detect(trials, ids, 2, 99) };
  }
  const injected: Record<string, Detection> = {};
  for (const f of FACTORS) injected[`x${f}`] = detect(same, ids, f, 7);
  process.stderr.write(
    `  history: A/A same-round ${aaSame.failed}/${aaSame.trials} fail, all pairs ${aaAll.failed}/${aaAll.trials}; ×2 found ${injected.x2?.found}/${injected.x2?.slowed}\n`,
  );

  // ── base, head, base: three consecutive runs.
  const abaTrials = [];
  for (let t = 0; t + 2 < n; t++) {
    abaTrials.push({
      base: [
        as(runs[t] as SourcedSummary, "base", 1),
        as(runs[t + 2] as SourcedSummary, "base", 2),
      ],
      head: [as(runs[t + 1] as SourcedSummary, "head", 1)],
      decide: (b: SourcedSummary[], h: SourcedSummary[]) =>
        compare(b, h, { settings, noise: { kind: "aba" } }),
    });
  }
  const aaAba = tally();
  const shockedAba = tally();
  const abaMdes: number[] = [];
  for (const t of abaTrials) {
    const report = t.decide(t.base, t.head);
    count(aaAba, report);
    if (report.noise.median_mde !== null) abaMdes.push(report.noise.median_mde);
    count(
      shockedAba,
      t.decide(
        t.base,
        t.head.map((h) => scaled(h, () => 1.1)),
      ),
    );
  }
  const abaInjected: Record<string, Detection> = {};
  for (const f of FACTORS) abaInjected[`x${f}`] = detect(abaTrials, ids, f, 11);
  process.stderr.write(
    `  aba: A/A ${aaAba.failed}/${aaAba.trials} fail; ×2 found ${abaInjected.x2?.found}/${abaInjected.x2?.slowed}\n`,
  );

  results[suite.name] = {
    benchmarks: ids.length,
    runs: n,
    history: {
      median_records: medianRecords,
      // The report's median minimum detectable effect, median over the same-round comparisons.
      median_mde: mdes.length > 0 ? median(mdes) : null,
      aa_same_round: aaSame,
      aa_all_pairs: aaAll,
      shock_x1_10: shocked,
      injected,
      few_records: few,
      peers_same_round: peerSame,
    },
    aba: {
      aa: aaAba,
      median_mde: abaMdes.length > 0 ? median(abaMdes) : null,
      shock_x1_10: shockedAba,
      injected: abaInjected,
    },
  };
}
writeResult("one-run-noise", { command: process.argv.slice(1).join(" "), subsets, results });
