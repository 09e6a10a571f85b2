// The comment's one folded "Diagnostics" block: how the run was made and judged, the busy
// machine, per-suite noise and sequential details, notes, environment, shards, warning smells
// and critcmp's table. None of it is a finding; all of it explains one. Folded, it costs the
// reader one line, and it is the first thing cut when the comment is too long.

import type { BenchReport } from "../schemas/report.gen.ts";
import { critcmpSection, smellsSection } from "./comment-checks.ts";
import {
  environmentSection,
  HEAD_COLUMN_LEGEND,
  modeLine,
  noiseSection,
  notesSection,
  runNotes,
} from "./comment-sections.ts";
import { countsRuleLine } from "./counts-section.ts";
import { fixed, type Section } from "./markdown-parts.ts";
import { shardsSection } from "./shards-section.ts";

/**
 * The block, its parts shortened together level by level; at the last, each part's smallest
 * form (the method and the noise in a line each), which a huge report still has room for.
 */
export function diagnosticsSection(report: BenchReport, critcmpTable: string | undefined): Section {
  const legend = report.benchmarks.some((e) => e.change !== null) ? HEAD_COLUMN_LEGEND : "";
  const method = [modeLine(report), countsRuleLine(report), legend]
    .filter((l) => l !== "")
    .join("\n\n");
  const parts: Section[] = [
    fixed(`**How this run was judged:** ${method}`),
    fixed(runNotes(report)),
    noiseSection(report),
    notesSection(report),
    environmentSection(report),
    shardsSection(report),
    smellsSection(report, false),
    critcmpSection(critcmpTable),
  ];
  const depth = Math.max(...parts.map((p) => p.levels.length));
  const levels: string[] = [];
  for (let k = 0; k < depth; k++) {
    const inner = parts
      .map((p) => p.levels[Math.min(k, p.levels.length - 1)] ?? "")
      .filter((m) => m !== "");
    levels.push(`<details><summary>Diagnostics</summary>\n\n${inner.join("\n\n")}\n\n</details>`);
  }
  return { priority: 1, levels };
}
