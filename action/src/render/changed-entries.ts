// Which benchmarks a human needs to see, in which order. Shared by the comment and the terminal
// so both list the same rows: regressed (worst first), improved (largest first), new, missing;
// inconclusive ones apart (worst plausible case first); secondary counts only when they changed.
// Unchanged ones are only counted.

import type { BenchReport, Entry } from "../schemas/report.gen.ts";

const TABLE_ORDER: Readonly<Record<Entry["verdict"], number>> = {
  regressed: 0,
  inconclusive: 1,
  improved: 2,
  unchanged: 3,
  new: 4,
  missing: 5,
};

/** The relative change turned so that positive means worse (slower, or less throughput). */
function worsening(entry: Entry, value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return entry.direction === "bigger_is_better" ? -value : value;
}

/** The worst change the entry's interval still allows (for ordering inconclusive rows). */
function worstPlausible(entry: Entry): number | null {
  const [lo, hi] = entry.ci ?? [];
  const a = worsening(entry, lo);
  const b = worsening(entry, hi);
  if (a === null || b === null) return worsening(entry, entry.change);
  return Math.max(a, b);
}

function sortKey(entry: Entry): number {
  switch (entry.verdict) {
    case "regressed":
      return -(worsening(entry, entry.change) ?? -Infinity);
    case "inconclusive":
      return -(worstPlausible(entry) ?? -Infinity);
    default:
      return worsening(entry, entry.change) ?? Infinity;
  }
}

function compareEntries(a: Entry, b: Entry): number {
  const byVerdict = TABLE_ORDER[a.verdict] - TABLE_ORDER[b.verdict];
  if (byVerdict !== 0) return byVerdict;
  const ka = sortKey(a);
  const kb = sortKey(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  // Code-unit order, not localeCompare: the same on every machine.
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return a.suite < b.suite ? -1 : a.suite > b.suite ? 1 : 0;
}

/** A count read under Valgrind (its own table: never mixed with the timings). */
export function isCount(entry: Entry): boolean {
  return entry.determinism !== undefined || entry.secondary === true;
}

/**
 * What a count or secondary series measures, in words: `l1_hits` → `l1 hits`, a percentile's
 * `p99_9` → `p99.9` (not "p99 9"). Not escaped.
 */
export function metricWords(entry: Entry): string {
  const metric = entry.metric ?? entry.unit;
  return /^p\d+_\d+$/u.test(metric) ? metric.replace("_", ".") : metric.replaceAll("_", " ");
}

/**
 * The comment's one table: what changed or fails, timings and primary counts together:
 * regressed (worst first), improved, new, missing. Secondary counts and inconclusive benchmarks
 * are shown apart (folded).
 */
export function tableEntries(report: BenchReport): Entry[] {
  const shown = new Set<Entry["verdict"]>(["regressed", "improved", "new", "missing"]);
  return report.benchmarks
    .filter((e) => e.secondary !== true && shown.has(e.verdict))
    .sort(compareEntries);
}

/** Inconclusive timings and primary counts (worst plausible case first). */
export function inconclusiveEntries(report: BenchReport): Entry[] {
  return report.benchmarks
    .filter((e) => e.secondary !== true && e.verdict === "inconclusive")
    .sort(compareEntries);
}

/**
 * Secondary counts (cache hits, cycles, memory) that changed beyond their floor: regressed or
 * improved. Unchanged and undecided ones say nothing a reviewer needs.
 */
export function secondaryChanges(report: BenchReport): Entry[] {
  return report.benchmarks
    .filter((e) => e.secondary === true && (e.verdict === "regressed" || e.verdict === "improved"))
    .sort(compareEntries);
}

/** Entries with the given verdict, in table order (by id when they have no change). */
export function entriesWithVerdict(report: BenchReport, verdict: Entry["verdict"]): Entry[] {
  return report.benchmarks.filter((e) => e.verdict === verdict).sort(compareEntries);
}

/** "2 regressed, 1 improved, 3 inconclusive of 120 benchmarks", from `report.counts`. */
export function countsPhrase(report: BenchReport, format: (n: number) => string): string {
  const c = report.counts;
  const parts: string[] = [];
  if (c.regressed > 0) parts.push(`${format(c.regressed)} regressed`);
  if (c.improved > 0) parts.push(`${format(c.improved)} improved`);
  if (c.inconclusive > 0) parts.push(`${format(c.inconclusive)} inconclusive`);
  if (c.new > 0) parts.push(`${format(c.new)} new`);
  if (c.missing > 0) parts.push(`${format(c.missing)} missing`);
  if (c.total === 0) return "no benchmarks compared";
  const noun = c.total === 1 ? "benchmark" : "benchmarks";
  if (parts.length === 0) return `no change in ${format(c.total)} ${noun}`;
  return `${parts.join(", ")} of ${format(c.total)} ${noun}`;
}
