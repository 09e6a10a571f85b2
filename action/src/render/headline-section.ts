// The comment's first lines: the verdict and what fails the gate, by name (the first few
// regressed benchmarks with their change, then golden outputs, budgets, claims, missing
// benchmarks), then the counts of the whole run in one line. A maintainer should know from
// these two lines what broke, without scrolling.

import type { BenchReport } from "../schemas/report.gen.ts";
import { countsPhrase } from "./changed-entries.ts";
import { formatCount, formatPercent } from "./format.ts";
import { code, fixed, headline, text, type Section } from "./markdown-parts.ts";
import { failingPhrase, type Quote } from "./verdict-summary.ts";

const MARKDOWN: Quote = { name: code, text };

/**
 * Marker line (already validated), the headline, the counts, and a single run's warning. A
 * failure whose regressions a maintainer `accepted` for this commit passes the check, so its
 * headline is not red; it still names what was accepted.
 */
export function headlineSection(
  report: BenchReport,
  title: string,
  marker: string | undefined,
  accepted = false,
): Section {
  const lines: string[] = [];
  if (marker !== undefined) lines.push(marker);
  const unverified = report.mode === "single-run" ? " (unverified)" : "";
  const counts = countsPhrase(report, formatCount);
  const failing = report.verdict === "fail" ? failingPhrase(report, MARKDOWN) : "";
  const rest = `${unverified} — ${failing === "" ? counts : failing}`;
  lines.push(
    accepted
      ? `## ☑️ ${text(title, 100)}: fail, accepted${rest}`
      : headline(report.verdict, title, rest),
  );
  if (failing !== "") lines.push("", `${counts}.`);
  if (report.mode === "single-run") {
    const threshold = formatPercent(report.settings.unverified_threshold);
    lines.push(
      "",
      "> [!WARNING]",
      `> **Single run per side — unverified.** Nothing was repeated, so the noise of this runner ` +
        `is unknown and only regressions larger than +${threshold} can fail the gate. ` +
        `Run interleaved rounds for a verdict you can trust.`,
    );
  }
  return fixed(lines.join("\n"));
}
