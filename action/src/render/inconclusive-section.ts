// The comment's inconclusive benchmarks: one visible line that says why in words ("runner too
// noisy: median MDE +68 % against the +3.0 % threshold; …") and their rows folded under it. An
// inconclusive row is not a finding, so it must not push the findings off the first screen.

import type { BenchReport } from "../schemas/report.gen.ts";
import { benchmarkTable } from "./benchmark-table.ts";
import { inconclusiveEntries } from "./changed-entries.ts";
import { formatCount, tamePercents } from "./format.ts";
import { levels, text, type Section } from "./markdown-parts.ts";
import { inconclusiveReason } from "./verdict-summary.ts";

export function inconclusiveSection(report: BenchReport): Section {
  const entries = inconclusiveEntries(report);
  if (entries.length === 0) return { priority: 3, levels: [""] };
  const noun = entries.length === 1 ? "benchmark" : "benchmarks";
  const reason = text(tamePercents(inconclusiveReason(report, entries)), 400);
  const line = `🟡 **${formatCount(entries.length)} inconclusive ${noun}**${reason === "" ? "" : `: ${reason}`}.`;
  const render = (budget: number): string => {
    const table = benchmarkTable(report, entries, budget).markdown;
    return `${line}\n\n<details><summary>${entries.length === 1 ? "The inconclusive row" : `The ${formatCount(entries.length)} inconclusive rows`}</summary>\n\n${table}\n\n</details>`;
  };
  return { priority: 3, levels: levels(render(30_000), render(4_000), line) };
}
