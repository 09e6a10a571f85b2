// Error annotations for what a reviewer must act on: broken budgets, failing claims, changed
// golden outputs and confirmed regressions. Pure; the texts are the report's own, already bounded.
import type { BenchReport } from "../schemas/report.gen.ts";
import { formatChange } from "./format.ts";

interface Annotation {
  readonly title: string;
  readonly message: string;
}

const MAX_ANNOTATIONS = 10;

export function gateAnnotations(report: BenchReport): Annotation[] {
  const out: Annotation[] = [];
  for (const b of report.budgets)
    if (!b.ok)
      out.push({
        title: "benchgate: budget broken",
        message: `${b.benchmark}: ${b.rule}${b.message === undefined ? "" : ` — ${b.message}`}`,
      });
  for (const c of report.claims ?? [])
    if (c.fails)
      out.push({
        title: `benchgate: claim ${c.verdict === "false" ? "false" : "not checked"}`,
        message: `${c.faster} faster than ${c.than} by ${c.by}: ${c.reason}`,
      });
  for (const g of report.golden)
    if (!g.ok)
      out.push({
        title: "benchgate: golden output changed",
        message: `${g.name}: ${g.message ?? "changed"}`,
      });
  for (const e of report.benchmarks)
    if (e.verdict === "regressed" && e.change !== null)
      out.push({
        title: "benchgate: regression",
        // As the comment writes them: from +1,000 % on a ratio (×26), not "+2500.0 %".
        message: `${e.id}: ${formatChange(e.change)} (CI ${e.ci === null ? "n/a" : e.ci.map(formatChange).join(" … ")})`,
      });
  return out.slice(0, MAX_ANNOTATIONS);
}
