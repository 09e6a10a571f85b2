// Each series' run-to-run noise from the default branch's history (docs/statistics.md §14), for
// a comparison that has one run per side; what the estimate is and the tests against it are
// core/history-noise.ts. Pure.
//
// Which records count: single runs (a record of k ≥ 2 rounds holds a median over rounds, which
// varies less than one run does, so it would make the noise look smaller than it is), measured
// on the same runner as the comparison (its environment fingerprint, docs/runner-host.md), and of
// the series' current level: the records after its last superseded baseline and its last change
// point (change-points.ts, run on the same eligible records), at most the `window` most recent.
// Their sample variance on the log scale, with n − 1 degrees of freedom, is the estimate. It
// includes whatever else moved between those runs (job-to-job shocks, small code changes, drift),
// so it can only overstate the noise of two runs in one job.
//
// Records far outside the rest are set aside first (core/outlier-fence.ts): a whole record when
// half the series measured in it are outside their fence (a job on a disturbed machine), and a
// value outside its series' fence while such values are isolated (in most series they are the
// runner's own heavy tails, which stay). The window is then the most recent `window` records that remain, so a
// set-aside record does not shorten it. What was set aside is returned, to be named in the report.
import type { BenchHistory } from "../schemas/history.gen.ts";
import {
  noiseKey,
  type HistoryNoise,
  type SeriesNoise,
  type SetAsideRecord,
  type SetAsideValue,
} from "../core/history-noise.ts";
import { fence, isolated } from "../core/outlier-fence.ts";
import { mean, median } from "../core/statistics.ts";
import { detectChangePointsInSegments } from "./change-points.ts";
import { seriesCuts } from "./series-segments.ts";

interface HistoryNoiseOptions {
  /**
   * The comparison's runner fingerprint; records of other runners are not used. undefined takes
   * every record (recorded test data only): a real comparison whose head recorded no fingerprint
   * cannot match a runner and does not use the history (gate/history-noise-source.ts).
   */
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
export const HISTORY_NOISE_DEFAULTS = Object.freeze({ window: 30, minRecords: 20 });

/** What a record's fingerprint looks like (history-record.ts keeps no other). */
const FINGERPRINT = /^[0-9a-f]{16,64}$/;

/** Sample variance of `logs`, or undefined below two. */
function sampleVariance(logs: readonly number[]): number | undefined {
  if (logs.length < 2) return undefined;
  const m = mean(logs);
  return logs.reduce((s, x) => s + (x - m) * (x - m), 0) / (logs.length - 1);
}

/** One series' eligible records: ln(value) and the commit position each came from. */
interface SeriesRecords {
  readonly logs: number[];
  readonly positions: number[];
}

/** A series' current level: its records since its last cut or change point, and which are outliers. */
interface Level {
  readonly index: number;
  readonly logs: readonly number[];
  readonly positions: readonly number[];
  /** Positions (commit indexes) of this series' records outside its fence (outlier-fence.ts). */
  readonly outside: ReadonlySet<number>;
  readonly centre: number;
}

function levelOf(index: number, records: SeriesRecords, cuts: readonly number[]): Level {
  const { logs, positions } = records;
  // Cuts are commit positions; here they become indexes into this series' eligible records.
  const cutIndexes = cuts.map((c) => positions.findIndex((p) => p >= c)).filter((i) => i > 0);
  const changes = detectChangePointsInSegments(logs, cutIndexes).map((cp) => cp.index);
  const start = Math.max(0, ...cutIndexes, ...changes);
  const level = { logs: logs.slice(start), positions: positions.slice(start) };
  const fenced = fence(level.logs);
  return {
    index,
    ...level,
    outside: new Set([...fenced.outside].map((i) => level.positions[i] as number)),
    centre: fenced.centre,
  };
}

/**
 * Records whose values lie outside the fence in at least half of the series measured in them
 * (two at least): a job that ran on a disturbed machine, not one benchmark's noise. The whole
 * record is set aside, since nothing it measured can be trusted as ordinary noise.
 */
function disturbedRecords(levels: readonly Level[]): Map<number, { outside: number; of: number }> {
  const tally = new Map<number, { outside: number; of: number }>();
  for (const level of levels) {
    for (const p of level.positions) {
      const t = tally.get(p) ?? { outside: 0, of: 0 };
      t.of += 1;
      if (level.outside.has(p)) t.outside += 1;
      tally.set(p, t);
    }
  }
  return new Map([...tally].filter(([, t]) => t.of >= 2 && 2 * t.outside >= t.of));
}

/** The largest ratio the report states: schema-valid values 1e-300 and 1e300 are 1e600 apart. */
const LARGEST_RATIO = 1e300;

/** A log-scale deviation as the finite ratio the report can hold. */
function ratioOf(deviation: number): number {
  return Math.min(LARGEST_RATIO, Math.exp(deviation));
}

/** How far the series' record at commit `position` lies from its level, on the log scale. */
function deviationAt(level: Level, position: number): number[] {
  const i = level.positions.indexOf(position);
  return i < 0 ? [] : [(level.logs[i] as number) - level.centre];
}

/** Every series' noise estimate from the history, for a comparison on `fingerprint`'s runner. */
export function estimateHistoryNoise(
  history: BenchHistory,
  options: HistoryNoiseOptions,
): HistoryNoise {
  const minRecords = Math.max(2, options.minRecords ?? HISTORY_NOISE_DEFAULTS.minRecords);
  // A window shorter than the fewest records would leave every series without an estimate.
  const window = Math.max(minRecords, options.window ?? HISTORY_NOISE_DEFAULTS.window);
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
  // Per series index: its ln(values) and the commit positions they came from, in commit order. A
  // value with no finite logarithm is no run time; the schema already refuses it.
  const bySeries = new Map<number, SeriesRecords>();
  for (const position of eligible) {
    for (const [index, value] of history.commits[position]?.results ?? []) {
      const log = Math.log(value);
      if (!Number.isFinite(log)) continue;
      let s = bySeries.get(index);
      if (s === undefined) {
        s = { logs: [], positions: [] };
        bySeries.set(index, s);
      }
      s.logs.push(log);
      s.positions.push(position);
    }
  }
  const cuts = seriesCuts(history);
  const levels = [...bySeries]
    .filter(([index, s]) => history.series[index] !== undefined && s.logs.length >= minRecords)
    .map(([index, s]) =>
      levelOf(
        index,
        s,
        (cuts.get(index) ?? []).map((c) => c.index),
      ),
    );
  const disturbed = disturbedRecords(levels);
  // Single values outside their fence are set aside only while they are isolated; in most series
  // they are the runner's own heavy tails, which the tail guard must see (outlier-fence.ts).
  const touched = levels.filter((l) => [...l.outside].some((p) => !disturbed.has(p))).length;
  const valuesAside = isolated(touched, levels.length);
  const series = new Map<string, SeriesNoise>();
  const values: SetAsideValue[] = [];
  const used = new Set<number>();
  for (const level of levels) {
    const meta = history.series[level.index] as BenchHistory["series"][number];
    const aside = (p: number): boolean => disturbed.has(p) || (valuesAside && level.outside.has(p));
    const keep = level.positions
      .map((p, i) => ({ p, log: level.logs[i] as number }))
      .filter(({ p }) => !aside(p))
      .slice(-window);
    const from = keep[0]?.p ?? Infinity;
    level.positions.forEach((p, i) => {
      if (p < from) return;
      used.add(p);
      if (valuesAside && level.outside.has(p) && !disturbed.has(p))
        values.push({
          sha: history.commits[p]?.sha ?? "",
          suite: meta.suite,
          id: meta.id,
          ratio: ratioOf((level.logs[i] as number) - level.centre),
        });
    });
    const logs = keep.map((k) => k.log);
    const variance = sampleVariance(logs);
    if (variance === undefined || logs.length < minRecords || !Number.isFinite(variance)) continue;
    series.set(noiseKey(meta), { logs, variance, df: logs.length - 1, records: logs.length });
  }
  const records: SetAsideRecord[] = [...disturbed]
    .filter(([p]) => used.has(p))
    .map(([p, t]) => ({
      sha: history.commits[p]?.sha ?? "",
      outside: t.outside,
      of: t.of,
      ratio: ratioOf(median(levels.flatMap((l) => deviationAt(l, p)))),
    }));
  const first = history.commits[eligible[0] ?? -1]?.sha ?? null;
  const last = history.commits[eligible[eligible.length - 1] ?? -1]?.sha ?? null;
  return {
    kind: "history",
    series,
    setAside: { records, values },
    basis: {
      commits: eligible.length,
      first,
      last,
      fingerprint: fingerprint ?? null,
      window,
    },
  };
}
