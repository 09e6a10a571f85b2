// What the comment and the terminal say about rounds: how many the benchmarks got and why they
// stopped (sequential rounds), and the suite-wide change the round model estimated. Plain text
// out; the callers escape it for their medium.

import type { BenchReport, Entry, SuiteResult } from "../schemas/report.gen.ts";
import { formatChange, formatCount, formatPercent, formatShort } from "./format.ts";

type StopReason = NonNullable<Entry["stopped"]>["reason"];

/** Why a benchmark stopped, in words a reader of the PR understands. */
const STOP_WORDS: Readonly<Record<StopReason, string>> = {
  regressed: "regression confirmed",
  improved: "improvement confirmed",
  "ruled-out": "regression ruled out",
  futile: "more rounds could not settle it",
  "max-rounds": "max rounds reached",
  "time-budget": "time budget spent",
  // Not "not measured": a load suite's secondary series (p95, a server's memory) are measured
  // in every round their suite runs, but a round keeps only the open benchmarks it ran for
  // (runner/round-side.ts), and a secondary series keeps no round going.
  "not-measured": "not recorded in later rounds",
  fixed: "fixed rounds",
};

/**
 * "sequential rounds 3–15: 70 benchmarks got 3–9 rounds (412 benchmark-runs): 12 regression
 * confirmed, 40 regression ruled out, …". Empty for a fixed design.
 */
export function sequentialLine(report: BenchReport): string {
  const design = report.settings.design;
  if (design?.kind !== "sequential") return "";
  const stopped = report.benchmarks.filter((e) => e.stopped !== undefined);
  if (stopped.length === 0) return "";
  const rounds = stopped.map((e) => (e.stopped as NonNullable<Entry["stopped"]>).after_round);
  const spent = rounds.reduce((s, r) => s + r, 0);
  const byReason = new Map<StopReason, number>();
  for (const e of stopped) {
    const reason = (e.stopped as NonNullable<Entry["stopped"]>).reason;
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
  const range =
    Math.min(...rounds) === Math.max(...rounds)
      ? `${formatCount(rounds[0] as number)}`
      : `${formatCount(Math.min(...rounds))}–${formatCount(Math.max(...rounds))}`;
  const reasons = [...byReason].map(([r, n]) => `${formatCount(n)} ${STOP_WORDS[r]}`).join(", ");
  return (
    `sequential rounds ${formatCount(design.min_rounds ?? 0)}–${formatCount(design.max_rounds ?? 0)}: ` +
    `${formatCount(stopped.length)} benchmarks got ${range} rounds ` +
    `(${formatCount(spent)} benchmark-runs): ${reasons}`
  );
}

/**
 * One suite's round model and shift, e.g. "suite-wide +0.4 % (CI −1.2 % to +2.0 %), round-to-round
 * SD 1.1 %". `minBenchmarks` is the settings' fewest benchmarks per round for a round model.
 */
export function suiteShiftLine(suite: SuiteResult, minBenchmarks: number | undefined): string {
  const parts: string[] = [];
  if (suite.shift !== null) {
    const s = suite.shift;
    const verdict = s.verdict === "regressed" || s.verdict === "improved" ? `, ${s.verdict}` : "";
    parts.push(
      `suite-wide ${formatChange(s.change)} (CI ${formatChange(s.ci[0])} to ${formatChange(s.ci[1])}${verdict})`,
    );
  }
  if (suite.round_sd !== null) parts.push(`round-to-round SD ${formatPercent(suite.round_sd)}`);
  if (suite.order_effect !== null)
    parts.push(`run-order effect ${formatChange(Math.expm1(suite.order_effect))} (fitted)`);
  if (suite.model === "per-benchmark")
    parts.push(
      minBenchmarks === undefined
        ? "analysed per benchmark"
        : `analysed per benchmark (fewer than ${formatCount(minBenchmarks)} per round)`,
    );
  return parts.join(", ");
}

/**
 * What a suite's line is called: its name, and its unit when the suite has entries of several
 * units (a load suite's times and rates, error rates, bytes and descriptors are analysed apart).
 */
export function suiteLineLabel(suite: SuiteResult, all: readonly SuiteResult[]): string {
  const several = all.filter((s) => s.suite === suite.suite).length > 1;
  if (!several) return suite.suite;
  return `${suite.suite} (${suite.unit === "ns" || suite.unit.endsWith("/s") ? "times and rates" : suite.unit})`;
}

/** How rounds were modelled, for the mode line: only what the suites really did. */
export function roundModelPhrase(report: BenchReport): string {
  const twoWay = (report.suites ?? []).some((s) => s.model === "two-way");
  if (!twoWay) return "paired by round";
  return report.settings.crossover
    ? "round shocks and the run-order effect fitted across each suite"
    : "paired by round, round shocks fitted across each suite";
}

/**
 * How one run per side got its noise (mode history or aba), for the mode line; "" otherwise.
 * The history's basis is named so a reader can check which runs it rests on.
 */
export function oneRunDesignPhrase(report: BenchReport): string {
  if (report.mode === "aba") return "base, head, base in one job (noise from the two base runs)";
  if (report.mode !== "history") return "";
  const h = report.noise.history;
  if (h === undefined) return "one run per side, noise from the history";
  const span =
    h.first !== null && h.last !== null ? `, ${h.first.slice(0, 7)}…${h.last.slice(0, 7)}` : "";
  const records =
    h.median_records === null
      ? ""
      : ` (median ${formatCount(h.median_records)} per benchmark${span})`;
  return `one run per side, noise from ${formatCount(h.commits)} default-branch runs of this runner${records}`;
}

/**
 * What a verdict on one run per side with borrowed noise assumes (history or base-head-base), in
 * a sentence or two for the reader; "" for other modes.
 */
export function historyAssumptions(report: BenchReport): string {
  if (report.mode === "aba")
    return (
      "Base, head, base: the noise is learnt from the two base runs of this job, assuming the " +
      "head run is no noisier; a head run that landed far off for a few benchmarks cannot be " +
      "told from a regression; interleaved rounds can."
    );
  const h = report.noise.history;
  if (report.mode !== "history" || h === undefined) return "";
  const scaled =
    h.inflation > 1
      ? ` This job's differences spread wider than those runs, so every variance was scaled up ×${formatShort(h.inflation)}.`
      : "";
  const without =
    h.without > 0
      ? ` ${formatCount(h.without)} benchmark${h.without === 1 ? "" : "s"} without history ${h.without === 1 ? "is" : "are"} unverified (only changes of ${formatChange(report.settings.unverified_threshold)} or more can fail).`
      : "";
  return (
    "One run per side: each benchmark's noise is estimated from its recent default-branch runs " +
    "on this runner since its last change point, assuming this job is no quieter than those runs." +
    scaled +
    without
  );
}

/**
 * The history records set aside as far outside the rest (docs/statistics.md §14), named so a
 * reader can check them: whole records first (a job on a disturbed machine), then single values.
 * Plain text with benchmark ids in it: the caller escapes. "" when nothing was set aside.
 */
export function historySetAsideLine(report: BenchReport): string {
  const s = report.noise.history?.set_aside;
  if (report.mode !== "history" || s === undefined) return "";
  const parts: string[] = [];
  const records = s.records
    .slice(0, 5)
    .map(
      (r) =>
        `${r.sha.slice(0, 7)} (${r.outside} of ${r.of} series outside their usual range, median ×${formatShort(r.ratio)})`,
    );
  if (s.records.length > 5) records.push(`${s.records.length - 5} more`);
  if (records.length > 0)
    parts.push(`${s.records.length === 1 ? "record" : "records"} ${records.join(", ")}`);
  const values = s.values
    .slice(0, 3)
    .map((v) => `${v.id} in ${v.sha.slice(0, 7)} (×${formatShort(v.ratio)})`);
  if (s.values_total > 3) values.push(`${s.values_total - 3} more`);
  if (values.length > 0)
    parts.push(
      `${s.values_total === 1 ? "one value" : `${s.values_total} values`}: ${values.join(", ")}`,
    );
  if (parts.length === 0) return "";
  return `Set aside from the history as far outside the rest: ${parts.join("; ")}.`;
}

/**
 * Says when the machine was busy while benchmarks measured (docs/statistics.md, Contention):
 * how many benchmark runs got well under their suite's usual CPU share. "" when none did or the
 * runs did not record their CPU time.
 */
export function contentionLine(report: BenchReport): string {
  const c = report.noise.contention;
  if (c === undefined || c.contended === 0) return "";
  const share = c.median_share === null ? "" : `; median CPU share ${formatShort(c.median_share)}`;
  return (
    `The machine was busy: ${formatCount(c.contended)} of ${formatCount(c.processes)} benchmark runs ` +
    `got under ${Math.round(c.threshold * 100)} % of their suite's usual CPU share${share}. ` +
    "Such runs land up to 2× off; from 12 rounds a benchmark is judged by the median of its " +
    "rounds, which they do not move."
  );
}
