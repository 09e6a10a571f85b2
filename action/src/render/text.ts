// The verdict for a terminal, in the PR comment's order: the headline naming what fails, an
// aligned table of what changed or fails, the inconclusive benchmarks with the reason, the
// checks, then the diagnostics (how it was judged, the noise). Untrusted strings pass through sanitizeText,
// which turns ESC and every other control character into U+FFFD, so a benchmark name cannot
// carry ANSI sequences (cursor moves, hyperlinks, title changes) to the reader's terminal, and
// through defuseWorkflowCommands, so a name that starts a row cannot be a command to the CI log
// that shows this text (docs/threat-model.md, O6).

import type { BenchReport, Entry } from "../schemas/report.gen.ts";
import {
  historyAssumptions,
  historySetAsideLine,
  contentionLine,
  oneRunDesignPhrase,
  roundModelPhrase,
  sequentialLine,
  suiteLineLabel,
  suiteShiftLine,
} from "./rounds-summary.ts";
import {
  countsPhrase,
  inconclusiveEntries,
  secondaryChanges,
  tableEntries,
} from "./changed-entries.ts";
import {
  formatChange,
  formatCi,
  formatCount,
  formatShort,
  formatPercent,
  formatValue,
  tamePercents,
} from "./format.ts";
import { budgetCountLine, budgetsByState, budgetState } from "./budget-state.ts";
import { ratioPhrase, type Quoting } from "./ratio-sections.ts";
import { sanitizeText } from "./sanitize-text.ts";
import { defuseWorkflowCommands } from "./workflow-commands.ts";
import { failingPhrase, inconclusiveReason, shownHead } from "./verdict-summary.ts";

interface TextOptions {
  /** Colour the verdicts with ANSI SGR codes (ours only). Default false. */
  readonly color?: boolean;
  /** Table rows to show before "… n more". Default 50. */
  readonly maxRows?: number;
}

const SGR = {
  pass: "\u001b[1;32m",
  fail: "\u001b[1;31m",
  inconclusive: "\u001b[1;33m",
  error: "\u001b[1;35m",
  regressed: "\u001b[31m",
  improved: "\u001b[32m",
  warn: "\u001b[33m",
  reset: "\u001b[0m",
} as const;

/**
 * Renders `report` as plain text for a terminal, in the comment's order (comment.ts): the verdict
 * naming what fails, the counts, why, what changed or fails, the inconclusive benchmarks with
 * the reason, secondary counts that changed, budgets, claims, golden outputs, head to head, then
 * the diagnostics. Pure; never emits control characters from the report.
 */
export function renderText(report: BenchReport, options: TextOptions = {}): string {
  const paint = (style: keyof typeof SGR, s: string): string =>
    options.color === true ? `${SGR[style]}${s}${SGR.reset}` : s;
  const maxRows = options.maxRows ?? 50;
  const out: string[] = [];
  const verdict = paint(
    (["pass", "fail", "inconclusive"] as const).find((v) => v === report.verdict) ?? "error",
    plain(report.verdict, 20).toUpperCase(),
  );
  const counts = countsPhrase(report, formatCount);
  const failing = report.verdict === "fail" ? failingPhrase(report, PLAIN) : "";
  out.push(`${verdict}  benchgate: ${failing === "" ? counts : failing}`);
  if (failing !== "") out.push(counts);
  if (report.mode === "single-run") {
    const threshold = formatPercent(report.settings.unverified_threshold);
    out.push(
      paint(
        "warn",
        `SINGLE RUN PER SIDE — UNVERIFIED: only regressions larger than +${threshold} can fail the gate.`,
      ),
    );
  }
  const assumptions = historyAssumptions(report);
  if (assumptions !== "") out.push(plain(assumptions, 600));
  if (report.reasons.length > 0) {
    out.push(
      "",
      "why:",
      ...limited(report.reasons, 10).map((r) => `  - ${plain(tamePercents(r))}`),
    );
  }
  const rows = tableEntries(report);
  if (rows.length > 0) out.push("", ...table(report, rows, maxRows, paint));
  out.push(...inconclusiveLines(report, maxRows, paint));
  out.push(...secondaryLines(report));
  out.push(...checks(report, paint));
  out.push(...diagnostics(report, paint));
  return defuseWorkflowCommands(out.join("\n") + "\n");
}

function inconclusiveLines(report: BenchReport, maxRows: number, paint: Paint): string[] {
  const entries = inconclusiveEntries(report);
  if (entries.length === 0) return [];
  const reason = inconclusiveReason(report, entries);
  return [
    "",
    paint(
      "warn",
      `inconclusive (${formatCount(entries.length)}): ${plain(tamePercents(reason), 400)}`,
    ),
    ...table(report, entries, maxRows, paint),
  ];
}

function secondaryLines(report: BenchReport): string[] {
  const changed = secondaryChanges(report);
  if (changed.length === 0) return [];
  const shown = changed
    .slice(0, 10)
    .map((e) => `${plain(e.id, 60)} ${formatChange(e.change)}`)
    .join(", ");
  const more = changed.length > 10 ? ` and ${formatCount(changed.length - 10)} more` : "";
  return [
    "",
    `secondary counts that changed (${formatCount(changed.length)}; they never fail the gate): ${shown}${more}`,
  ];
}

type Paint = (style: keyof typeof SGR, s: string) => string;

// Defused here as well as on the whole text, so a table cell is escaped before the columns are
// measured and the table stays aligned.
function plain(value: string | undefined, maxLength = 200): string {
  return defuseWorkflowCommands(sanitizeText(value ?? "", { maxLength }));
}

function limited(items: readonly string[], limit: number): string[] {
  const shown = items.slice(0, limit);
  if (items.length > limit)
    shown.push(`… ${formatCount(items.length - limit)} more; see report.json`);
  return shown;
}

function modeLine(report: BenchReport): string {
  const s = report.settings;
  const ci = `${formatPercent(s.confidence).replace(".0 %", " %")} CI`;
  if (report.mode === "single-run") return `single run per side · ${ci}`;
  const oneRun = oneRunDesignPhrase(report);
  if (oneRun !== "")
    return `${plain(oneRun)} · regressed = significant (FDR q ≤ ${formatShort(s.q)}) and at least ${formatChange(s.fail_threshold)} · ${ci}`;
  const order = roundModelPhrase(report);
  const rounds =
    s.unpaired === true
      ? "unpaired runs (independent samples)"
      : s.design?.kind === "sequential"
        ? `sequential rounds ${formatCount(s.design.min_rounds ?? 0)}–${formatCount(s.design.max_rounds ?? 0)} (${formatCount(s.rounds)} run), ${order}`
        : `${formatCount(s.rounds)} interleaved rounds per side, ${order}`;
  return (
    `${rounds} · ` +
    `regressed = significant (FDR q ≤ ${formatShort(s.q)}) and at least ${formatChange(s.fail_threshold)} · ${ci}`
  );
}

function table(
  report: BenchReport,
  entries: readonly Entry[],
  maxRows: number,
  paint: Paint,
): string[] {
  const confidence = formatPercent(report.settings.confidence).replace(".0 %", " %");
  const header = ["benchmark", "base", "head (est.)", "change", `CI (${confidence})`, "verdict"];
  const shown = entries.slice(0, Math.max(0, maxRows));
  const cells = shown.map((e) => [
    plain(e.id, 60),
    plain(formatValue(e.base?.value, e.unit), 40),
    plain(formatValue(shownHead(e), e.unit), 40),
    formatChange(e.change),
    formatCi(e.ci),
    e.verdict +
      (e.determinism?.status === "non-deterministic" ? " (non-deterministic)" : "") +
      (e.unverified ? " (unverified)" : ""),
  ]);
  const widths = header.map((h, i) =>
    Math.max(width(h), ...cells.map((row) => width(row[i] ?? ""))),
  );
  const line = (row: readonly string[], verdict?: Entry["verdict"]): string =>
    row
      .map((cell, i) => {
        const w = widths[i] ?? 0;
        const padded = i === 0 || i >= 4 ? padEnd(cell, w) : padStart(cell, w);
        if (i !== 5 || verdict === undefined) return padded;
        if (verdict === "regressed") return paint("regressed", padded);
        if (verdict === "improved") return paint("improved", padded);
        return paint("warn", padded);
      })
      .join("  ")
      .trimEnd();
  const lines = [line(header), ...cells.map((row, i) => line(row, shown[i]?.verdict))];
  if (entries.length > shown.length) {
    lines.push(`… ${formatCount(entries.length - shown.length)} more rows; see report.json`);
  }
  return lines;
}

// Code points, not UTF-16 units: close enough for alignment, and never splits a character.
function width(s: string): number {
  return Array.from(s).length;
}

function padEnd(s: string, w: number): string {
  return s + " ".repeat(Math.max(0, w - width(s)));
}

function padStart(s: string, w: number): string {
  return " ".repeat(Math.max(0, w - width(s))) + s;
}

function noiseLine(report: BenchReport): string {
  const n = report.noise;
  const parts: string[] = [];
  if (n.median_sd !== null)
    parts.push(`median SD of the per-round log ratio ${formatPercent(n.median_sd)}`);
  if (n.median_mde !== null) {
    parts.push(
      `could detect regressions of about ${formatChange(n.median_mde)} or larger (median MDE)`,
    );
  }
  if (n.period_effect !== null)
    parts.push(`run-order effect ${formatChange(Math.expm1(n.period_effect))} (fitted)`);
  if (report.mode === "rounds") parts.push(`${formatCount(report.settings.rounds)} rounds`);
  const head =
    parts.length === 0
      ? "noise: not measurable from one run per side"
      : `noise: ${parts.join(" · ")}`;
  const lines = [head];
  for (const s of report.suites ?? []) {
    const line = suiteShiftLine(s, report.settings.min_benchmarks_for_rounds);
    if (line !== "")
      lines.push(`  ${plain(suiteLineLabel(s, report.suites ?? []), 80)}: ${plain(line)}`);
  }
  const sequential = sequentialLine(report);
  if (sequential !== "") lines.push(`  ${plain(sequential)}`);
  return lines.join("\n");
}

/** A confidence level as "95 %", "97.5 %". */
function level(value: number | undefined): string {
  return formatPercent(value).replace(".0 %", " %");
}

function budgetLines(report: BenchReport, paint: Paint): string[] {
  if (report.budgets.length === 0) return [];
  const { broken, close, unchecked } = budgetsByState(report.budgets);
  const out = [`budgets: ${budgetCountLine(report.budgets, formatCount)}`];
  const shown = [...broken, ...close, ...unchecked].slice(0, 10);
  for (const b of shown) {
    const limit = b.limit === undefined ? "" : ` limit ${plain(formatValue(b.limit, b.unit))}`;
    const actual = b.actual === undefined ? "" : `, actual ${plain(formatValue(b.actual, b.unit))}`;
    const line = `${plain(b.benchmark, 60)}: ${plain(b.rule, 80)} (${plain(b.statistic, 32)})${limit}${actual}`;
    const state = budgetState(b);
    if (state === "broken") out.push(paint("regressed", `  ✗ ${line}`));
    else if (state === "close") out.push(paint("warn", `  ~ ${line} (close)`));
    else out.push(`  - ${line} (not checked: ${plain(b.message ?? "nothing measured", 160)})`);
  }
  return out;
}

function claimLines(report: BenchReport, paint: Paint): string[] {
  const claims = report.claims ?? [];
  if (claims.length === 0) return [];
  const holds = claims.filter((c) => c.verdict === "holds").length;
  const out = [
    `claims: ${formatCount(holds)} of ${formatCount(claims.length)} hold (each at ${level(claims[0]?.level)}, Bonferroni over the claims)`,
  ];
  // Claims that hold are the count line; the others are listed.
  for (const [i, c] of claims.slice(0, 10).entries()) {
    if (c.verdict === "holds" && !c.fails) continue;
    const mark = c.fails
      ? "✗"
      : c.verdict === "holds"
        ? "✓"
        : c.verdict === "inconclusive"
          ? "?"
          : "-";
    const line = `  ${mark} claim ${i + 1}: ${plain(c.faster, 60)} faster than ${plain(c.than, 60)} by ${plain(c.by, 64)}: ${c.verdict} — ${plain(c.reason, 200)}`;
    out.push(
      c.fails ? paint("regressed", line) : c.verdict === "holds" ? line : paint("warn", line),
    );
  }
  if (claims.length > 10) out.push(`  … ${formatCount(claims.length - 10)} more; see report.json`);
  return out;
}

const PLAIN: Quoting = {
  name: (value, max) => plain(value, max),
  text: (value, max) => plain(value, max),
};

function headToHeadLines(report: BenchReport): string[] {
  const pairs = report.head_to_head ?? [];
  if (pairs.length === 0) return [];
  const out = [`head to head (${level(pairs[0]?.level)} intervals, information only):`];
  for (const r of pairs.slice(0, 20))
    out.push(
      `  ${plain(r.suite, 40)} ${plain(r.benchmark, 60)}: head ${ratioPhrase(r, r.head, PLAIN)} · base ${ratioPhrase(r, r.base, PLAIN)}`,
    );
  if (pairs.length > 20) out.push(`  … ${formatCount(pairs.length - 20)} more; see report.json`);
  return out;
}

function checks(report: BenchReport, paint: Paint): string[] {
  const out: string[] = [];
  const env = report.environment;
  if (env.mismatch) {
    out.push(paint("warn", "environment: base and head ran in different environments"));
    out.push(...limited(env.differences, 10).map((d) => `  - ${plain(d)}`));
  }
  out.push(...budgetLines(report, paint));
  out.push(...claimLines(report, paint));
  const changedGolden = report.golden.filter((g) => !g.ok);
  if (report.golden.length > 0) {
    out.push(
      `golden outputs: ${formatCount(report.golden.length - changedGolden.length)} of ${formatCount(report.golden.length)} unchanged`,
    );
    for (const g of changedGolden.slice(0, 10)) {
      const message = g.message === undefined ? "" : `: ${plain(g.message)}`;
      out.push(paint("regressed", `  ✗ ${plain(g.name, 80)}${message}`));
    }
  }
  out.push(...smellLines(report, true, paint));
  out.push(...headToHeadLines(report));
  return out.length > 0 ? ["", ...out] : [];
}

function smellLines(report: BenchReport, failing: boolean, paint: Paint): string[] {
  return report.smells
    .filter((s) => (s.fails === true) === failing)
    .slice(0, 10)
    .map((s) =>
      paint(
        failing ? "regressed" : "warn",
        `smell ${plain(s.kind, 64)}${failing ? " (fails the gate)" : ""}: ${plain(tamePercents(s.evidence))}`,
      ),
    );
}

/** The comment's folded Diagnostics, in the same order: how it was judged, the machine, the noise. */
function diagnostics(report: BenchReport, paint: Paint): string[] {
  const out = ["", "diagnostics:", modeLine(report)];
  const setAside = historySetAsideLine(report);
  if (setAside !== "") out.push(plain(setAside, 800));
  const busy = contentionLine(report);
  if (busy !== "") out.push(plain(busy, 400));
  out.push(noiseLine(report));
  for (const w of limited(report.environment.warnings, 10))
    out.push(paint("warn", `warning: ${plain(w)}`));
  out.push(...smellLines(report, false, paint));
  return out;
}
