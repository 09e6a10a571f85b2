// What the comment's first lines and the terminal's say, as plain facts: what fails the gate
// (named, so the headline can say it), why the inconclusive benchmarks are inconclusive (in
// words), and the head value a row shows. The callers quote names and escape text for their
// medium; nothing here is escaped.

import type { BenchReport, Entry } from "../schemas/report.gen.ts";
import { entriesWithVerdict, isCount, metricWords } from "./changed-entries.ts";
import { formatChange, formatCount } from "./format.ts";

/**
 * One thing that fails the gate: its kind in plain words (`golden output`; "" for a regressed
 * benchmark), the `name` to quote, the `change` (our own formatting, safe as it is) and
 * `detail` (report text: a rule, a metric).
 */
interface FailingItem {
  readonly what: string;
  readonly name: string;
  readonly change: string;
  readonly detail: string;
}

function regression(e: Entry): FailingItem {
  const metric = isCount(e) ? metricWords(e) : "";
  return { what: "", name: e.id, change: formatChange(e.change), detail: metric };
}

function item(what: string, name: string, detail = ""): FailingItem {
  return { what, name, change: "", detail };
}

/**
 * Everything that fails the gate, most important first: confirmed regressions (worst first;
 * secondary counts never fail), a suite-wide shift, missing benchmarks, broken budgets, failing
 * claims, changed golden outputs, failing smells, inconclusive benchmarks when they fail.
 */
export function failingItems(report: BenchReport): FailingItem[] {
  const items: FailingItem[] = [];
  for (const e of entriesWithVerdict(report, "regressed")) {
    if (e.secondary !== true) items.push(regression(e));
  }
  for (const s of report.suites ?? []) {
    if (s.shift?.verdict === "regressed")
      items.push({
        what: "suite",
        name: s.suite,
        change: formatChange(s.shift.change),
        detail: "overall",
      });
  }
  if ((report.settings.missing ?? "fail") === "fail") {
    for (const e of entriesWithVerdict(report, "missing")) items.push(item("missing", e.id));
  }
  for (const b of report.budgets) {
    if (!b.ok) items.push(item("budget", b.benchmark, b.rule));
  }
  for (const c of report.claims ?? []) {
    if (c.fails) items.push(item("claim", `${c.faster} faster than ${c.than}`, `by ${c.by}`));
  }
  for (const g of report.golden) {
    if (!g.ok) items.push(item("golden output", g.name, "changed"));
  }
  for (const s of report.smells) {
    if (s.fails === true) items.push(item("smell", s.kind, s.suite ?? ""));
  }
  if (report.settings.fail_on_inconclusive === true && report.counts.inconclusive > 0) {
    const n = report.counts.inconclusive;
    items.push(item(`${formatCount(n)} inconclusive`, ""));
  }
  return items;
}

/** How a medium shows a name and a piece of report text (escaped for it). */
export interface Quote {
  readonly name: (value: string, maxLength: number) => string;
  readonly text: (value: string, maxLength: number) => string;
}

/** How many failing things of one kind are named before "and N more". */
const NAMED_PER_KIND = 3;

function itemPhrase(item: FailingItem, q: Quote): string {
  return [
    q.text(item.what, 60),
    item.name === "" ? "" : q.name(item.name, 80),
    item.change,
    q.text(item.detail, 60),
  ]
    .filter((p) => p !== "")
    .join(" ");
}

/**
 * "normalize +226.0 % and 2 more; golden output cli-help changed": the first few of each kind,
 * so a golden output is never crowded out by regressions. "" when nothing fails.
 */
export function failingPhrase(report: BenchReport, q: Quote): string {
  const byKind = Map.groupBy(failingItems(report), (i) => i.what);
  const phrases = [...byKind.values()].map((items) => {
    const shown = items
      .slice(0, NAMED_PER_KIND)
      .map((i) => itemPhrase(i, q))
      .join(", ");
    const more = items.length - NAMED_PER_KIND;
    return more > 0 ? `${shown} and ${formatCount(more)} more` : shown;
  });
  return phrases.join("; ");
}

function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Why these inconclusive benchmarks were not settled, in words a maintainer can act on: "runner
 * too noisy: median MDE +68 % against the +3.0 % threshold; a quieter runner or a longer time
 * budget would settle them".
 */
export function inconclusiveReason(report: BenchReport, entries: readonly Entry[]): string {
  if (entries.length === 0) return "";
  const nonDeterministic = entries.filter((e) => e.determinism?.status === "non-deterministic");
  const timings = entries.filter((e) => e.determinism?.status !== "non-deterministic");
  const parts: string[] = [];
  const them = timings.length === 1 ? "it" : "them";
  if (timings.length > 0) {
    if (report.mode === "single-run") {
      parts.push(
        `one run per side, so the runner's noise is unknown; interleaved rounds would settle ${them}`,
      );
    } else {
      const threshold = report.settings.fail_threshold;
      const mde = median(
        timings.map((e) => e.mde).filter((m): m is number => m !== null && Number.isFinite(m)),
      );
      const outOfTime = timings.filter((e) => e.stopped?.reason === "time-budget").length;
      const against =
        mde === null
          ? ""
          : `${timings.length === 1 ? "its MDE" : "their median MDE"} ${formatChange(mde)} against the ${formatChange(threshold)} threshold`;
      if (outOfTime * 2 > timings.length)
        parts.push(
          `the time budget ran out${against === "" ? "" : ` (${against})`}; a longer time budget would settle ${them}`,
        );
      else if (mde === null || mde > 2 * threshold)
        parts.push(
          `runner too noisy${against === "" ? "" : `: ${against}`}; a quieter runner or a longer time budget would settle ${them}`,
        );
      else parts.push(`close to the threshold: ${against}; more rounds would settle ${them}`);
    }
  }
  if (nonDeterministic.length > 0)
    parts.push(
      nonDeterministic.length === 1
        ? "1 count differs between rounds of the same code, so it is reported, not decided"
        : `${formatCount(nonDeterministic.length)} counts differ between rounds of the same code, so they are reported, not decided`,
    );
  return parts.join("; ");
}

/**
 * The head value a row shows: base × (1 + change), so that head/base − 1 is the change the row
 * states. The change is the paired round model's estimate, not the ratio of the two medians;
 * showing head's own median beside it made rows contradict themselves (`445 → 683 ns` shown as
 * +70.5 %). Head's own median is in report.json. Without a change (new, missing), head's median.
 */
export function shownHead(entry: Entry): number | null {
  const base = entry.base?.value;
  if (base === undefined || entry.change === null || !Number.isFinite(entry.change))
    return entry.head?.value ?? null;
  return base * (1 + entry.change);
}
