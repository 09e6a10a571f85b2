// Runs every smell detector per suite and applies benchgate.yml's `smells:` block: kinds can be
// ignored, or made to fail the gate, globally or per suite. Smells are warnings by default —
// they say the numbers may be the harness's, not that the code got slower. Pure.
import type { SourcedSummary } from "../core/pairing.ts";
import type { BenchgateConfig, SmellKinds } from "../schemas/config.gen.ts";
import type { BenchReport, Smell } from "../schemas/report.gen.ts";
import { identicalTimings } from "./identical-timings.ts";
import { timerResolution, underpowered } from "./power-and-resolution.ts";
import { parameterizedGroups } from "./parameterized-groups.ts";
import { complexityChange, flatScaling } from "./scaling-smells.ts";
import { sideData, type BenchmarkRuns, type SideData } from "./smell-data.ts";
import { varianceSmells } from "./variance-smells.ts";
import { withPart } from "../core/gate-verdict.ts";

export type SmellConfig = NonNullable<BenchgateConfig["smells"]>;

const MAX_TEXT = 2000;
const clip = (text: string): string =>
  text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;

/** Most smells a report carries; the rest are summarized in one more entry. */
const MAX_SMELLS = 200;

function bySuite(data: SideData): Map<string, SideData> {
  const out = new Map<string, Map<string, BenchmarkRuns>>();
  for (const [id, b] of data) {
    const m = out.get(b.suite) ?? new Map<string, BenchmarkRuns>();
    m.set(id, b);
    out.set(b.suite, m);
  }
  return out;
}

function kindsFor(
  config: SmellConfig | undefined,
  suite: string,
  key: "ignore" | "fail-on",
): Set<string> {
  const global: SmellKinds = config?.[key] ?? [];
  const local: SmellKinds = config?.suites?.[suite]?.[key] ?? [];
  return new Set<string>([...global, ...local]);
}

interface SmellInput {
  readonly base: readonly SourcedSummary[];
  readonly head: readonly SourcedSummary[];
  /** The comparison's report: its entries (MDE, verdicts) and settings. */
  readonly report: BenchReport;
}

export function detectSmells(input: SmellInput, config?: SmellConfig): Smell[] {
  const headData = sideData(input.head);
  // Only complexity-change looks at base, and only at parameterized groups: read just those.
  const grouped = new Set(
    parameterizedGroups(headData).flatMap((g) => g.members.map((m) => m.benchmark.id)),
  );
  const base = bySuite(sideData(input.base, (id) => grouped.has(id)));
  const head = bySuite(headData);
  const { fail_threshold: failThreshold, rounds } = input.report.settings;
  const smells: Smell[] = [];
  for (const [suite, h] of head) {
    const b: SideData = base.get(suite) ?? new Map<string, BenchmarkRuns>();
    const entries = input.report.benchmarks.filter((e) => e.suite === suite);
    const found: Smell[] = [
      ...identicalTimings(h),
      ...flatScaling(h),
      ...complexityChange(b, h),
      ...varianceSmells(h, "head"),
      ...timerResolution(h, "head"),
      ...underpowered(entries, failThreshold, rounds),
    ];
    const ignore = kindsFor(config, suite, "ignore");
    const failOn = kindsFor(config, suite, "fail-on");
    for (const smell of found) {
      if (ignore.has(smell.kind)) continue;
      smells.push({
        ...smell,
        benchmarks: smell.benchmarks.slice(0, 1000),
        // The schema's text limit; detectors keep well below it, this is the backstop.
        evidence: clip(smell.evidence),
        ...(smell.hint === undefined ? {} : { hint: clip(smell.hint) }),
        suite,
        ...(failOn.has(smell.kind) ? { fails: true } : {}),
      });
    }
  }
  if (smells.length <= MAX_SMELLS) return smells;
  const kept = smells.slice(0, MAX_SMELLS - 1);
  kept.push({
    kind: "many-smells",
    benchmarks: [],
    evidence: `${smells.length - kept.length} more smells not listed`,
    ...(smells.slice(MAX_SMELLS - 1).some((s) => s.fails === true) ? { fails: true } : {}),
  });
  return kept;
}

/** Puts smells in the report; a smell of a kind configured to fail fails the gate. */
export function withSmells(report: BenchReport, smells: readonly Smell[]): BenchReport {
  if (smells.length === 0) return report;
  const failing = smells.filter((s) => s.fails === true);
  const reason =
    failing.length > 0
      ? `benchmark smell${failing.length === 1 ? "" : "s"} configured to fail: ${[...new Set(failing.map((s) => s.kind))].join(", ")}`
      : undefined;
  return withPart(report, { smells: [...smells] }, reason);
}
