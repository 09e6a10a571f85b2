// The comment's "Shards" section for a merged sharded run: which machine measured which shard.
// Base and head of a shard always ran on one machine; the report's environment warnings say
// when a shard's machine differs from the others'. Every value comes from the shards' summaries
// (written by the measure jobs), so each is escaped.
import type { BenchReport } from "../schemas/report.gen.ts";
import { formatCount } from "./format.ts";
import { code, fixed, levels, tableRow, text, type Section } from "./markdown-parts.ts";

export function shardsSection(report: BenchReport): Section {
  const shards = report.shards ?? [];
  if (shards.length === 0) return fixed("");
  const heading = `### Shards — ${formatCount(shards.length)} machines, one verdict over all of them`;
  const rows = shards.map((s) => {
    const env = s.head ?? s.base;
    const fingerprint = env?.fingerprint;
    return tableRow([
      `${s.index}/${s.count}`,
      formatCount(s.benchmarks),
      text(env?.runner_name ?? "—", 60),
      text(env?.cpu_model ?? "—", 60),
      fingerprint === undefined ? "—" : code(fingerprint.slice(0, 12), 12),
    ]);
  });
  const table = [
    tableRow(["shard", "benchmarks", "runner", "CPU", "fingerprint"]),
    tableRow(["---", "---:", "---", "---", "---"]),
    ...rows,
  ].join("\n");
  const oneLine = `${heading}\n\n${shards.map((s) => `${s.index}/${s.count}: ${formatCount(s.benchmarks)}`).join(" · ")}`;
  return { priority: 5, levels: levels(`${heading}\n\n${table}`, oneLine) };
}
