// The comment's sections on ratios of two benchmarks (docs/budgets-and-golden.md, "Claims"):
// the claims, checked on head, and the head-to-head table of a suite's variants. Ids, variants,
// units and reasons come from files a PR can change: every one is escaped.

import type {
  BenchReport,
  ClaimResult,
  HeadToHeadResult,
  SideRatio,
} from "../schemas/report.gen.ts";
import { formatCount, formatFactor, formatPercent, NO_VALUE } from "./format.ts";
import {
  cappedTable,
  code,
  fixed,
  levels,
  listWithMore,
  tableRow,
  text,
  type Section,
} from "./markdown-parts.ts";

/** ✅ holds, ❌ false or failing, ⚠️ inconclusive, ➖ not checked (a filtered run). */
function claimMark(c: ClaimResult): string {
  if (c.fails) return "❌";
  if (c.verdict === "holds") return "✅";
  if (c.verdict === "inconclusive") return "⚠️";
  return "➖";
}

/** "[7.6×, 8.7×]", or nothing without an interval. */
function interval(i: readonly number[] | null): string {
  const lo = i?.[0];
  const hi = i?.[1];
  return lo === undefined || hi === undefined ? "" : ` [${formatFactor(lo)}, ${formatFactor(hi)}]`;
}

/** Why, in a few words: the interval against the bound, or the reason it was not checked. */
function shortReason(c: ClaimResult): string {
  const bound = formatFactor(c.bound);
  switch (c.verdict) {
    case "holds":
      return `lower end ≥ ${bound}`;
    case "false":
      return `upper end &lt; ${bound}`;
    case "inconclusive":
      return c.interval === null ? "one round: no interval" : `interval straddles ${bound}`;
    default:
      return text(c.reason, 160);
  }
}

function claimRow(c: ClaimResult): string {
  return tableRow([
    claimMark(c),
    `${code(c.faster, 100)} faster than ${code(c.than, 100)} by ${text(c.by, 64)}`,
    c.ratio === null ? NO_VALUE : `${formatFactor(c.ratio)}${interval(c.interval)}`,
    formatCount(c.rounds),
    shortReason(c),
  ]);
}

function claimsHeading(claims: readonly ClaimResult[]): string {
  const count = (pick: (c: ClaimResult) => boolean): number => claims.filter(pick).length;
  const parts = [
    `${formatCount(count((c) => c.verdict === "holds"))} of ${formatCount(claims.length)} hold`,
  ];
  const rest: [number, string][] = [
    [count((c) => c.verdict === "false"), "false"],
    [count((c) => c.verdict === "inconclusive"), "inconclusive"],
    [count((c) => c.verdict === "unchecked"), "not checked"],
  ];
  for (const [n, word] of rest) if (n > 0) parts.push(`${formatCount(n)} ${word}`);
  return `### Claims — ${parts.join(", ")}`;
}

export function claimsSection(report: BenchReport): Section {
  const claims = report.claims ?? [];
  if (claims.length === 0) return fixed("");
  const failing = claims.filter((c) => c.fails);
  const holding = claims.filter((c) => c.verdict === "holds" && !c.fails);
  const heading = claimsHeading(claims);
  // Claims that hold are one line, by name; the others (failing, inconclusive, not checked) are rows.
  const holdLine =
    holding.length === 0
      ? ""
      : `✅ **Claims that hold:** ${listWithMore(holding, 5, (c) => `${code(c.faster, 60)} faster than ${code(c.than, 60)} by ${text(c.by, 32)} (${formatFactor(c.ratio)})`)}`;
  const rest = [...failing, ...claims.filter((c) => !c.fails && c.verdict !== "holds")];
  if (rest.length === 0) return fixed(holdLine);
  const level = formatPercent(claims[0]?.level).replace(/\.0 %$/u, " %");
  const columns = {
    header: ["", "claim", `measured on head (${level} interval)`, "rounds", "why"],
    align: [":-:", ":--", ":--", "--:", ":--"],
  };
  const render = (rows: readonly ClaimResult[], total: number): string =>
    [cappedTable([heading, ""], columns, rows.map(claimRow), total), holdLine]
      .filter((p) => p !== "")
      .join("\n\n");
  return {
    priority: 4,
    levels: levels(
      render(rest.slice(0, 50), rest.length),
      render(failing.slice(0, 10), failing.length),
      failing.length === 0
        ? heading
        : `${heading}; see report.json for the ${formatCount(failing.length)} failing`,
    ),
  };
}

/** How a phrase shows a name (a variant) and a piece of report text (a unit, a reason). */
export interface Quoting {
  readonly name: (value: string, maxLength: number) => string;
  readonly text: (value: string | undefined, maxLength: number) => string;
}

const MARKDOWN: Quoting = { name: code, text };

/**
 * One side's ratio as a phrase: "rust 8.1× the req/s of python [7.6×, 8.7×]" for a
 * bigger-is-better unit, "rust 3.2× faster than python [2.9×, 3.5×]" (or "… slower …") for times.
 * The comment quotes as Markdown; the terminal text (text.ts) passes its own quoting.
 */
export function ratioPhrase(
  r: HeadToHeadResult,
  side: SideRatio,
  quote: Quoting = MARKDOWN,
): string {
  if (side.ratio === null) return `${NO_VALUE} (${quote.text(side.reason, 100)})`;
  const note =
    side.interval === null && side.reason !== undefined ? ` (${quote.text(side.reason, 100)})` : "";
  const other = quote.name(r.other.variant, 40);
  const reference = quote.name(r.reference.variant, 40);
  // Below 1 the reciprocal reads better than "0.31× faster", its interval turned round with it.
  const flipped =
    side.interval === null ? null : [1 / (side.interval[1] ?? 1), 1 / (side.interval[0] ?? 1)];
  if (r.direction === "bigger_is_better") {
    const unit = r.unit === undefined ? "value" : quote.text(r.unit, 32);
    // The larger rate is the subject: "rust 10.7× the req/s of python", not "python 0.094× …".
    return side.ratio >= 1
      ? `${other} ${formatFactor(side.ratio)} the ${unit} of ${reference}${interval(side.interval)}${note}`
      : `${reference} ${formatFactor(1 / side.ratio)} the ${unit} of ${other}${interval(flipped)}${note}`;
  }
  if (side.ratio >= 1)
    return `${other} ${formatFactor(side.ratio)} faster than ${reference}${interval(side.interval)}${note}`;
  return `${other} ${formatFactor(1 / side.ratio)} slower than ${reference}${interval(flipped)}${note}`;
}

function headToHeadRow(r: HeadToHeadResult): string {
  return tableRow([
    code(r.suite, 64),
    code(r.benchmark, 100),
    ratioPhrase(r, r.head),
    ratioPhrase(r, r.base),
  ]);
}

/** The head-to-head ratios, folded: information only, they never fail the gate. */
export function headToHeadSection(report: BenchReport): Section {
  const pairs = report.head_to_head ?? [];
  if (pairs.length === 0) return fixed("");
  const level = formatPercent(pairs[0]?.level).replace(/\.0 %$/u, " %");
  const summary = `<details><summary>Head to head: ${formatCount(pairs.length)} variant ${pairs.length === 1 ? "pair" : "pairs"} (information only)</summary>`;
  const lead = [
    summary,
    "",
    `Each variant against the suite's first (the reference), from the rounds that ran both; ${level} intervals. This never fails the gate.`,
    "",
  ];
  const columns = {
    header: ["suite", "benchmark", "head", "base"],
    align: [":--", ":--", ":--", ":--"],
  };
  const render = (limit: number): string =>
    `${cappedTable(lead, columns, pairs.slice(0, limit).map(headToHeadRow), pairs.length)}\n\n</details>`;
  return { priority: 1, levels: levels(render(50), render(10), "") };
}
