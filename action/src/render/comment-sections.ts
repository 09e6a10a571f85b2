// The comment's smaller sections: the reasons, one-run assumptions, notes, noise, environment
// and the footer.
// Every string taken from the report goes through escapeMarkdown (via code()/text()).

import type { BenchReport, Environment } from "../schemas/report.gen.ts";
import { inconclusiveEntries, tableEntries } from "./changed-entries.ts";
import { escapeMarkdown } from "./escape-markdown.ts";
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
  formatChange,
  formatCount,
  formatNumber,
  formatPercent,
  formatShort,
  groupDigits,
  tamePercents,
} from "./format.ts";
import {
  bulletList,
  code,
  fixed,
  levels,
  listWithMore,
  text,
  type Section,
} from "./markdown-parts.ts";

/**
 * What a one-run verdict assumes about its borrowed noise (history or base-head-base): shown
 * under the headline, because it qualifies the verdict itself. "" for other modes.
 */
export function assumptionsSection(report: BenchReport): Section {
  const assumptions = historyAssumptions(report);
  return fixed(assumptions === "" ? "" : `> [!NOTE]\n> ${text(assumptions, 600)}`);
}

/** How the run was made and judged, one line for the diagnostics. Exported for the terminal's order. */
export function modeLine(report: BenchReport): string {
  const s = report.settings;
  const parts: string[] = [];
  const oneRun = oneRunDesignPhrase(report);
  if (oneRun !== "") {
    parts.push(text(oneRun));
    parts.push(
      `regressed = significant (FDR q ≤ ${formatShort(s.q)}) and at least ${formatChange(s.fail_threshold)}`,
    );
  } else if (report.mode === "rounds") {
    const order = roundModelPhrase(report);
    const rounds =
      s.design?.kind === "sequential"
        ? `sequential rounds (${formatCount(s.design.min_rounds ?? 0)}–${formatCount(s.design.max_rounds ?? 0)}; ${formatCount(s.rounds)} run)`
        : `${formatCount(s.rounds)} interleaved rounds per side`;
    parts.push(s.unpaired === true ? "unpaired runs (independent samples)" : `${rounds}, ${order}`);
    parts.push(
      `regressed = significant (FDR q ≤ ${formatShort(s.q)}) and at least ${formatChange(s.fail_threshold)}`,
    );
  } else {
    parts.push("**single run per side — unverified**");
    parts.push(`fails only on regressions larger than ${formatChange(s.unverified_threshold)}`);
  }
  parts.push(`${formatPercent(s.confidence).replace(".0 %", " %")} CI`);
  if (s.fail_on_inconclusive === true) parts.push("inconclusive fails the gate");
  return parts.join(" · ");
}

/** What the table's head column shows, since it is not head's own median. */
export const HEAD_COLUMN_LEGEND =
  "In the tables, base is the median over base's rounds and head (est.) is base × (1 + change): the change is the paired estimate over the rounds, which the two medians need not reproduce; head's own median is in report.json.";

/** The busy machine and the history values set aside: context for a noisy run, one line each. */
export function runNotes(report: BenchReport): string {
  const lines = [contentionLine(report), historySetAsideLine(report)]
    .filter((l) => l !== "")
    .map((l) => text(l, 800));
  return lines.join("\n\n");
}

export function reasonsSection(report: BenchReport): Section {
  if (report.reasons.length === 0) return fixed("");
  const render = (limit: number): string =>
    `**Why:**\n${bulletList(report.reasons, limit, (r) => text(tamePercents(r)))}`;
  return {
    priority: 7,
    levels: levels(
      render(20),
      render(3),
      `**Why:** ${formatCount(report.reasons.length)} reasons; see report.json`,
    ),
  };
}

/**
 * Notes the comparison attached to the shown benchmarks, each note once with the benchmarks it
 * applies to: six rows "compared on the reported median" are one line.
 */
export function notesSection(report: BenchReport): Section {
  const byNote = new Map<string, string[]>();
  for (const e of [...tableEntries(report), ...inconclusiveEntries(report)])
    for (const n of e.notes) byNote.set(n, [...(byNote.get(n) ?? []), e.id]);
  if (byNote.size === 0) return fixed("");
  const render = (limit: number): string =>
    `**Notes:**\n${bulletList([...byNote], limit, ([note, ids]) => `${text(tamePercents(note), 600)}: ${listWithMore(ids, 5, (id) => code(id, 80))}`)}`;
  return { priority: 1, levels: levels(render(20), render(5), "") };
}

/** How noisy the runner was and what the run could have seen. */
export function noiseSection(report: BenchReport): Section {
  if (report.counts.total === 0) return fixed("");
  const n = report.noise;
  const parts: string[] = [];
  if (n.median_sd !== null) {
    parts.push(`median SD of the per-round log ratio ${formatPercent(n.median_sd)}`);
  }
  if (n.median_mde !== null) {
    parts.push(
      `this run could detect regressions of about ${formatChange(n.median_mde)} or larger ` +
        `(median MDE, 80 % power)`,
    );
  }
  if (n.period_effect !== null) {
    const effect = formatChange(Math.expm1(n.period_effect));
    parts.push(`run-order effect ${effect} for whichever side ran first (fitted)`);
  }
  const rounds = `${formatCount(report.settings.rounds)} rounds`;
  const suites = (report.suites ?? [])
    .map((s) => ({ s, line: suiteShiftLine(s, report.settings.min_benchmarks_for_rounds) }))
    .filter((x) => x.line !== "");
  const sequential = sequentialLine(report);
  const extra = [
    ...suites.map(
      (x) => `- ${code(suiteLineLabel(x.s, report.suites ?? []), 80)}: ${text(x.line)}`,
    ),
    ...(sequential === "" ? [] : [`- ${text(sequential)}`]),
  ];
  if (parts.length === 0) {
    return fixed(
      report.mode === "rounds"
        ? `**Noise:** not estimated (${rounds}).`
        : "**Noise:** not measurable from one run per side.",
    );
  }
  if (report.mode === "rounds") parts.push(rounds);
  const head = `**Noise:** ${parts.join(" · ")}.`;
  if (extra.length === 0) return fixed(head);
  return { priority: 2, levels: levels(`${head}\n\n${extra.join("\n")}`, head) };
}

/** A visible warning when base and head ran on different machines; the details are diagnostics. */
export function environmentWarningSection(report: BenchReport): Section {
  const env = report.environment;
  if (!env.mismatch) return fixed("");
  const n = env.differences.length;
  return fixed(
    `⚠️ **Base and head ran in different environments** (${formatCount(n)} ${n === 1 ? "difference" : "differences"}, under Diagnostics); the comparison may not be fair.`,
  );
}

export function environmentSection(report: BenchReport): Section {
  const env = report.environment;
  const summary = environmentSummary(env.head ?? env.base);
  if (!env.mismatch && env.warnings.length === 0 && summary === "") return fixed("");
  const render = (limit: number): string => {
    const blocks = ["**Environment:**"];
    if (env.mismatch) {
      const lead =
        "⚠️ **Base and head ran in different environments**; the comparison may not be fair.";
      const list = bulletList(env.differences, limit, (d) => text(d));
      blocks.push(list === "" ? lead : `${lead}\n\n${list}`);
    }
    if (env.warnings.length > 0) {
      // A lead-in paragraph keeps this list from merging with the one above.
      const list = bulletList(env.warnings, limit, (w) => `⚠️ ${text(w)}`);
      blocks.push(`**Runner warnings:**\n${list}`);
    }
    if (summary !== "") blocks.push(summary);
    return blocks.join("\n\n");
  };
  const oneLine = [
    "**Environment:**",
    [
      env.mismatch ? `⚠️ base and head differ in ${formatCount(env.differences.length)} ways` : "",
      env.warnings.length > 0 ? `⚠️ ${formatCount(env.warnings.length)} warnings` : "",
    ]
      .filter((s) => s !== "")
      .join(" · ") + " (see report.json)",
  ].join("\n\n");
  return { priority: 6, levels: levels(render(64), render(5), oneLine) };
}

/** The kernel's SMT states (/sys/devices/system/cpu/smt/control) in words, not "notsupported". */
const SMT_WORDS: Readonly<Record<string, string>> = {
  on: "on",
  off: "off",
  forceon: "forced on",
  forceoff: "forced off",
  notsupported: "not supported",
  notimplemented: "not implemented",
};

function environmentSummary(env: Environment | undefined): string {
  if (env === undefined) return "";
  const parts: string[] = [];
  const add = (label: string, value: string | number | boolean | null | undefined): void => {
    if (value === undefined || value === null || value === "") return;
    const shown = typeof value === "boolean" ? (value ? "on" : "off") : String(value);
    const escaped = escapeMarkdown(shown, { maxLength: 80 });
    parts.push(label === "" ? escaped : `${label} ${escaped}`);
  };
  add("runner", env.runner_name);
  add("CPU", env.cpu_model);
  add("logical CPUs", env.logical_cpus);
  add("isolated", env.isolated_cpus);
  add("governor", env.governor);
  add("turbo", env.turbo);
  add("SMT", env.smt === undefined ? undefined : (SMT_WORDS[env.smt] ?? env.smt));
  add("kernel", env.kernel);
  // `rustc -V` output already starts with "rustc"; a bare version from other tools does not.
  add(env.rustc?.startsWith("rustc ") === true ? "" : "rustc", env.rustc);
  if (env.memory_bytes !== undefined)
    parts.push(`memory ${groupDigits(env.memory_bytes / 2 ** 20)} MiB`);
  if (env.load_average !== undefined) {
    parts.push(
      `load ${env.load_average
        .slice(0, 3)
        .map((x) => formatNumber(x))
        .join(" ")}`,
    );
  }
  return parts.length === 0 ? "" : `Head environment: ${parts.join(" · ")}.`;
}

/** Links and provenance. `artifactsUrl` must already be a checked https URL. */
export function footerSection(report: BenchReport, artifactsUrl: string | undefined): Section {
  const parts: string[] = [];
  if (artifactsUrl !== undefined) parts.push(`[artifacts and report.json](${artifactsUrl})`);
  if (report.generator !== undefined) {
    parts.push(`${text(report.generator.name, 40)} ${text(report.generator.version, 40)}`);
  }
  if (report.generated_at !== undefined) parts.push(text(report.generated_at, 40));
  return fixed(parts.length === 0 ? "" : `<sub>${parts.join(" · ")}</sub>`);
}
