// Each series' run-to-run noise from the default branch's history (docs/statistics.md §14), for
// a comparison that has one run per side. Pure.
//
// Which records count: single runs (a record of k ≥ 2 rounds holds a median over rounds, which
// varies less than one run does, so it would make the noise look smaller than it is), measured
// on the same runner as the comparison (its environment fingerprint, docs/runner-host.md), and of
// the series' current level: the records after its last superseded baseline and its last change
// point (change-points.ts, run on the same eligible records), at most the `window` most recent.
// Their sample variance on the log scale, with n − 1 degrees of freedom, is the estimate. It
// includes whatever else moved between those runs (job-to-job shocks, small code changes, drift),
// so it can only overstate the noise of two runs in one job.
import type { BenchHistory } from "../schemas/history.gen.ts";
import { noiseKey, type HistoryNoise, type SeriesNoise } from "../core/history-noise.ts";
import { mean } from "../core/statistics.ts";
import { detectChangePointsInSegments } from "./change-points.ts";
import { seriesCuts } from "./series-segments.ts";

export interface RunNoiseOptions {
  /** The comparison's runner fingerprint; records of other runners are not used. */
  readonly fingerprint: string | undefined;
  /** At most this many recent records per series (default 30). */
  readonly window?: number;
  /** Fewest records a series needs for an estimate (default 20). */
  readonly minRecords?: number;
}

/**
 * Twenty records at least: fewer cannot be checked for a change of level inside them (the
 * change-point test flags nothing below ~20 points), and they too often miss the machine's
 * occasional far-off run, whose share the tail fit needs to see.
 */
export const RUN_NOISE_DEFAULTS = Object.freeze({ window: 30, minRecords: 20 });

/** What a record's fingerprint looks like (history-record.ts keeps no other). */
const FINGERPRINT = /^[0-9a-f]{16,64}$/;

/** Sample variance of `logs`, or undefined below two. */
function sampleVariance(logs: readonly number[]): number | undefined {
  if (logs.length < 2) return undefined;
  const m = mean(logs);
  return logs.reduce((s, x) => s + (x - m) * (x - m), 0) / (logs.length - 1);
}

/** The records of one series since its last cut or change point, oldest first, at most `window`. */
function currentLevel(
  values: readonly number[],
  positions: readonly number[],
  cuts: readonly number[],
  window: number,
): number[] {
  // Cuts are commit positions; here they become indexes into this series' eligible values.
  const cutIndexes = cuts.map((c) => positions.findIndex((p) => p >= c)).filter((i) => i > 0);
  const changes = detectChangePointsInSegments(values, cutIndexes).map((cp) => cp.index);
  const start = Math.max(0, ...cutIndexes, ...changes, values.length - window);
  return values.slice(start);
}

/** Every series' noise estimate from the history, for a comparison on `fingerprint`'s runner. */
export function estimateRunNoise(history: BenchHistory, options: RunNoiseOptions): HistoryNoise {
  const minRecords = Math.max(2, options.minRecords ?? RUN_NOISE_DEFAULTS.minRecords);
  // A window shorter than the fewest records would leave every series without an estimate.
  const window = Math.max(minRecords, options.window ?? RUN_NOISE_DEFAULTS.window);
  // A fingerprint no record can have matches none; it is not shown as if it were one.
  const fingerprint =
    options.fingerprint === undefined || FINGERPRINT.test(options.fingerprint)
      ? options.fingerprint
      : undefined;
  const eligible: number[] = [];
  history.commits.forEach((c, i) => {
    const single = c.rounds === undefined || c.rounds === 1;
    const here = options.fingerprint === undefined || c.fingerprint === options.fingerprint;
    if (single && here) eligible.push(i);
  });
  // Per series index: its values and the commit positions they came from, in commit order.
  const bySeries = new Map<number, { values: number[]; positions: number[] }>();
  for (const position of eligible) {
    const commit = history.commits[position];
    if (commit === undefined) continue;
    for (const [index, value] of commit.results) {
      let s = bySeries.get(index);
      if (s === undefined) {
        s = { values: [], positions: [] };
        bySeries.set(index, s);
      }
      s.values.push(value);
      s.positions.push(position);
    }
  }
  const cuts = seriesCuts(history);
  const series = new Map<string, SeriesNoise>();
  for (const [index, { values, positions }] of bySeries) {
    const meta = history.series[index];
    if (meta === undefined || values.length < minRecords) continue;
    const level = currentLevel(
      values,
      positions,
      (cuts.get(index) ?? []).map((c) => c.index),
      window,
    );
    const logs = level.filter((v) => v > 0 && Number.isFinite(v)).map((v) => Math.log(v));
    const variance = sampleVariance(logs);
    if (variance === undefined || logs.length < minRecords) continue;
    series.set(noiseKey(meta), { logs, variance, df: logs.length - 1, records: logs.length });
  }
  const first = history.commits[eligible[0] ?? -1]?.sha ?? null;
  const last = history.commits[eligible[eligible.length - 1] ?? -1]?.sha ?? null;
  return {
    kind: "history",
    series,
    basis: {
      commits: eligible.length,
      first,
      last,
      fingerprint: fingerprint ?? null,
      window,
    },
  };
}
