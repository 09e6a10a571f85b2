// One history record (docs/history.md, "What a record says") from a default-branch report.json and the commit it measured.
// Pure: the caller reads the report, the commit metadata and the budgets.
//
// Per benchmark with a head measurement:
// - median: `head.value`, the median over rounds of each round's sample median — the statistic
//   the gate compares (docs/statistics.md §1), so the page plots what the gate decided on;
// - CI: the exact order-statistic interval of that median from `head.per_round`
//   (median-interval.ts: [min, max] for 3–8 rounds with 75 %…99 % coverage, narrower from 9
//   rounds on, aiming at 95 %); null bounds below three rounds, where no interval means much;
// - budget: the tightest absolute `median:` or `p50:` limit of benchgate.yml's budgets whose
//   glob matches the id and whose unit is the series' unit (so a rate limit on a timed
//   benchmark, which the gate converts through throughput, draws no line); null otherwise.
// Results are keyed by series (suite, id, unit, direction), not by index: history-merge.ts
// places them in the catalogue.
import { InputError } from "../errors.ts";
import { globMatch, type BudgetRule } from "../budgets/parse-budget.ts";
import type { BenchReport, Entry } from "../schemas/report.gen.ts";
import type { Commit, Series } from "../schemas/history.gen.ts";
import { medianOrderInterval } from "./median-interval.ts";

/** The commit a record describes; free text is clipped to the schema's limits. */
export interface CommitInfo {
  /** 40 lowercase hex digits. */
  readonly sha: string;
  /** The committer date, ISO 8601 with a zone (`2025-01-02T03:04:05Z`, `…+02:00`). */
  readonly date: string;
  /** The message; only its first line is kept. */
  readonly message: string;
  readonly author: string;
  /** The commit's page; https only. */
  readonly url?: string;
  /** The ref that was pushed, e.g. `refs/heads/main`. */
  readonly ref?: string;
}

/** One benchmark's point: [median, CI low, CI high, budget] in the series' unit. */
export interface RecordResult {
  readonly series: Series;
  readonly median: number;
  readonly ciLow: number | null;
  readonly ciHigh: number | null;
  readonly budget: number | null;
  /** github-action-benchmark's `range`/`extra` text, for imported points only. */
  readonly extra?: { readonly range: string | null; readonly extra: string | null };
}

/** A commit's record before it is placed in a history: everything but the series indexes. */
export interface HistoryRecord {
  readonly commit: Omit<Commit, "results" | "extras">;
  readonly results: readonly RecordResult[];
}

interface RecordOptions {
  /** When this record is made (`recorded_at`), ISO 8601. */
  readonly recordedAt: string;
  /** benchgate.yml's budgets (parseBudgets), for the budget line; none gives null budgets. */
  readonly budgets?: readonly BudgetRule[];
}

const SHA = /^[0-9a-f]{40}$/;
const TIMESTAMP =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$/;
const FINGERPRINT = /^[0-9a-f]{16,64}$/;
const MAX_MESSAGE_CHARS = 1024;
const MAX_AUTHOR_CHARS = 256;
const MAX_URL_CHARS = 2048;

/** Collapses whitespace and control characters to single spaces and clips to `max` code points (never half a surrogate pair). */
function clipText(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  const points = Array.from(clean);
  return points.length <= max ? clean : `${points.slice(0, max - 1).join("")}…`;
}

/** The message's first line (git's subject line), clipped. */
export function subjectLine(message: string): string {
  return clipText(message.split(/\r?\n/, 1)[0] ?? "", MAX_MESSAGE_CHARS);
}

function checkCommit(info: CommitInfo): void {
  const problems: [string, string][] = [];
  if (!SHA.test(info.sha)) problems.push(["sha", "must be 40 lowercase hex digits"]);
  if (!TIMESTAMP.test(info.date) || Number.isNaN(Date.parse(info.date)))
    problems.push(["date", "must be an ISO 8601 time with a zone, e.g. 2025-01-02T03:04:05Z"]);
  if (
    info.url !== undefined &&
    (!info.url.startsWith("https://") || info.url.length > MAX_URL_CHARS)
  )
    problems.push(["url", `must start with https:// and have at most ${MAX_URL_CHARS} characters`]);
  if (info.ref !== undefined && (info.ref === "" || info.ref.length > 256))
    problems.push(["ref", "must have 1 to 256 characters"]);
  const [first] = problems;
  if (first !== undefined)
    throw new InputError(
      `commit ${first[0]} ${JSON.stringify(String(info[first[0] as keyof CommitInfo]).slice(0, 80))} ${first[1]}`,
    );
}

/** The tightest absolute median/p50 limit on this benchmark in its own unit, or null. */
export function budgetLine(entry: Entry, rules: readonly BudgetRule[]): number | null {
  let best: number | null = null;
  for (const rule of rules) {
    if (!globMatch(rule.benchmark, entry.id)) continue;
    for (const limit of rule.limits) {
      if (limit.statistic !== "median" && limit.statistic !== "p50") continue;
      if (limit.unit !== entry.unit) continue;
      // A time limit is an upper bound (the smallest binds), a rate limit a lower bound.
      const upper = limit.op === "<" || limit.op === "<=";
      if (best === null || (upper ? limit.value < best : limit.value > best)) best = limit.value;
    }
  }
  return best;
}

function resultOf(entry: Entry, rules: readonly BudgetRule[]): RecordResult | undefined {
  const head = entry.head;
  if (head === null) return undefined; // missing on head: nothing was measured
  const interval = medianOrderInterval(head.per_round);
  return {
    series: {
      suite: entry.suite,
      id: entry.id,
      unit: entry.unit,
      direction: entry.direction,
      origin: "benchgate",
    },
    median: head.value,
    ciLow: interval?.lower ?? null,
    ciHigh: interval?.upper ?? null,
    budget: budgetLine(entry, rules),
  };
}

/** The record of one default-branch commit from its validated report. */
export function buildHistoryRecord(
  report: BenchReport,
  info: CommitInfo,
  options: RecordOptions,
): HistoryRecord {
  checkCommit(info);
  if (!TIMESTAMP.test(options.recordedAt))
    throw new InputError(`recorded_at ${JSON.stringify(options.recordedAt)} is not ISO 8601`);
  const head = report.environment.head;
  const fingerprint = head?.fingerprint;
  const commit: HistoryRecord["commit"] = {
    sha: info.sha,
    ...(info.ref === undefined ? {} : { ref: info.ref }),
    date: info.date,
    message: subjectLine(info.message),
    author: clipText(info.author, MAX_AUTHOR_CHARS),
    ...(info.url === undefined ? {} : { url: info.url }),
    recorded_at: options.recordedAt,
    ...(fingerprint !== undefined && FINGERPRINT.test(fingerprint) ? { fingerprint } : {}),
    ...(head === undefined ? {} : { environment: head }),
    rounds: report.settings.rounds,
    verdict: report.verdict,
  };
  const rules = options.budgets ?? [];
  const results = report.benchmarks
    .map((entry) => resultOf(entry, rules))
    .filter((r): r is RecordResult => r !== undefined);
  return { commit, results };
}
