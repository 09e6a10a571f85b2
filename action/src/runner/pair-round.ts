// One round of `schedule: pairs` (docs/run.md, "Schedules"): for each unit of the round (one
// Criterion benchmark, one hyperfine command, a whole suite of a kind that cannot be cut), its
// base process and its head process one right after the other, in the round's order (base first
// in odd rounds, head first in even ones, so the run-order model applies per round). Under
// contention a whole process can land up to 2× off: many short processes, each a few seconds
// from its partner on the other side, make the number of processes decide, not their length.
// Each side's outputs of a suite are read once, after its last process (every Criterion process
// of a side and round saves into the same baseline), and the round is written as the two
// summaries a round of `schedule: suite` writes, started_at in the round's order, so compare,
// critcmp and everything after them read it as before.
import type { SuitePlan } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { Side } from "../config/suites/suite-kind.ts";
import { estimatePoint, type SourcedSummary } from "../core/pairing.ts";
import { ToolError } from "../errors.ts";
import { InterruptedError } from "../exec/run-step.ts";
import type { Benchmark, Environment } from "../schemas/summary.gen.ts";
import { overlongIds, type UnitTime } from "./overlong-processes.ts";
import { pairUnits, type PairSetup, type PairUnit } from "./pair-units.ts";
import {
  finishSide,
  recordSuite,
  warnIfUnpinned,
  type SideBenchmarks,
  type SideRound,
} from "./round-side.ts";
import { plural, quoteIds, type RoundLedger, type RoundsRun } from "./rounds-state.ts";
import {
  measuredBy,
  readOutputs,
  runSuiteSteps,
  type ProcessTime,
  type StepOutput,
  type SuiteRun,
} from "./run-suite.ts";
import { SuiteProgress } from "./suite-progress.ts";
import { roundOrder, sideEnv } from "./suite-commands.ts";

/** One side's part of the round so far. */
interface SideState extends SideBenchmarks {
  /** When its first process started: which side ran first in the round. */
  startedAt?: string;
  finishedAt?: string;
}

/** The plan one process runs: the unit's, with the harness's short time flags. */
function shortPlan(plan: SuitePlan, setup: PairSetup): SuitePlan {
  const kind = suiteKind(plan);
  if (kind.shorten === undefined) return plan;
  return kind.shorten(plan, { wholeSeconds: setup.wholeSeconds.has(plan.name) }).plan;
}

/** How one side of a suite's unit runs (its files numbered by the unit when it is one of several). */
function unitRun(
  side: Side,
  suite: SuitePlan,
  at: { readonly round: number; readonly part?: number },
  run: RoundsRun,
  watch?: SuiteProgress,
): SuiteRun {
  const paths = run.sides[side];
  const binary = paths.benchBinaries?.get(suite.name);
  return {
    side,
    round: at.round,
    out: run.request.out,
    paths,
    env: sideEnv(run.deps.env, paths),
    ...(watch === undefined ? {} : { watch: { line: (text: string) => watch.line(text) } }),
    ...(at.part === undefined ? {} : { part: at.part }),
    ...(binary === undefined ? {} : { binary }),
    deferRead: true,
  };
}

/** A suite's units, each base and head back to back; returns the units' times (Criterion). */
async function runSuitePairs(
  suite: SuitePlan,
  units: readonly PairUnit[],
  at: { readonly round: number; readonly side: SideRound },
  run: RoundsRun,
  state: { readonly sides: Record<Side, SideState>; readonly ledger: RoundLedger },
): Promise<UnitTime[]> {
  const { deps } = run;
  const { round } = at;
  const { sides, ledger } = state;
  const order = roundOrder(round);
  const setup = run.pairs as PairSetup;
  const ms: Record<Side, number> = { base: 0, head: 0 };
  const found: Record<Side, Benchmark[]> = { base: [], head: [] };
  const unread: Record<Side, StepOutput[]> = { base: [], head: [] };
  // Which process measured each benchmark read later (one unit's ids, one process per side).
  const measured: Record<Side, Map<string, ProcessTime>> = { base: new Map(), head: new Map() };
  const times: UnitTime[] = [];
  const suiteStarted = deps.clock.now();
  const watch = new SuiteProgress({
    label: `${deps.progress.roundLabel(round)} · ${suite.name} (base and head)`,
    expected: units.length,
    noun: "pairs",
    countsUnits: true,
    clock: deps.clock,
    write: (text) => deps.progress.line(text),
    ...(deps.progress.live ? { status: (text: string) => deps.progress.status(text) } : {}),
  });
  for (const [i, unit] of units.entries()) {
    const plan = shortPlan(unit.plan, setup);
    const took: Record<Side, number> = { base: 0, head: 0 };
    const part = unit.ids === undefined ? {} : { part: i + 1 };
    for (const side of order) {
      sides[side].startedAt ??= deps.clock.date().toISOString();
      const t0 = deps.clock.now();
      const how = unitRun(side, suite, { round, ...part }, run, watch);
      const result = await runSuiteSteps(plan, how, deps);
      took[side] = deps.clock.now() - t0;
      sides[side].finishedAt = deps.clock.date().toISOString();
      ms[side] += took[side];
      found[side].push(...measuredBy(result.benchmarks, result.process));
      unread[side].push(...result.unread);
      for (const id of unit.ids ?? []) measured[side].set(id, result.process);
    }
    // A suite of one unit (one that cannot be cut) needs no count of its pairs.
    if (units.length > 1) watch.unitDone();
    const pairs = { done: i + 1, expected: units.length };
    deps.progress.pairDone(round, suite.name, pairs, deps.clock.now() - suiteStarted);
    if (unit.ids === undefined) continue;
    // What the next round's estimate takes for each benchmark: this pair's real cost.
    for (const id of unit.ids) ledger.idMs.set(id, (took.base + took.head) / unit.ids.length);
    times.push({ ids: unit.ids, ms: Math.min(took.base, took.head) });
  }
  for (const side of order) {
    const read = (
      await readOutputs(unread[side], suite, unitRun(side, suite, { round }, run), deps)
    ).map((b) => {
      const time = measured[side].get(b.id);
      return time === undefined ? b : (measuredBy([b], time)[0] as Benchmark);
    });
    const ran = { suite, found: [...found[side], ...read], ms: ms[side] };
    recordSuite({ ...at.side, side }, ran, sides[side], run, ledger);
  }
  return times;
}

/**
 * Benchmarks whose processes took far longer than the short times allow (their code sets its
 * own), of a suite where benchgate set the times (SuiteKind.shortProcessTime: Criterion's).
 */
function overlong(
  suite: SuitePlan,
  times: readonly UnitTime[],
  benchmarks: readonly Benchmark[],
  setup: PairSetup,
): string[] {
  const harness = { wholeSeconds: setup.wholeSeconds.has(suite.name) };
  const time = suiteKind(suite).shortProcessTime?.(suite, harness);
  if (time === undefined) return [];
  const ns = new Map<string, number>();
  for (const b of benchmarks)
    if (b.suite === suite.name) ns.set(b.id, estimatePoint(b.estimates.median) ?? 0);
  return overlongIds(times, ns, time);
}

/** Said once per run: which benchmarks ignore the short times, and what to do about it. */
function warnOverlong(ids: readonly string[], run: RoundsRun, ledger: RoundLedger): void {
  if (ids.length === 0 || ledger.warned.has("overlong")) return;
  ledger.warned.add("overlong");
  run.deps.progress.warn(
    `${plural(ids.length, "Criterion benchmark")} took several times longer per process than benchgate's short --warm-up-time/--measurement-time allow (${quoteIds(ids)}): their benchmark group sets warm_up_time or measurement_time in code, which wins over the command line. The time budget plans with what they really take. To make them short, remove those settings from the bench code, or apply them only when the run is not gated (e.g. when an environment variable of yours is unset)`,
  );
}

/** Runs one round of pairs and writes both sides' summaries, in the round's order. */
export async function runPairRound(
  at: Omit<SideRound, "side">,
  run: RoundsRun,
  ledger: RoundLedger,
): Promise<Record<Side, SourcedSummary>> {
  const { round, plan } = at;
  const { deps } = run;
  const setup = run.pairs;
  if (setup === undefined) throw new ToolError("internal error: schedule: pairs without its setup");
  if (deps.signal.aborted) throw new InterruptedError(`interrupted before round ${round}`);
  const order = roundOrder(round);
  const environment = {} as Record<Side, Environment>;
  for (const side of order) environment[side] = await deps.environment(run.sides[side].worktree);
  if (round === 1) warnIfUnpinned(environment[order[0]], deps.progress);
  const fresh = (): SideState => ({ benchmarks: [], suiteOf: new Map(), missing: [] });
  const sides: Record<Side, SideState> = { base: fresh(), head: fresh() };
  const units = pairUnits(plan, setup);
  const flagged: string[] = [];
  const sideAt: SideRound = { ...at, side: order[0] };
  for (const suite of plan.suites) {
    const mine = units.filter((u) => u.plan.name === suite.name);
    const times = await runSuitePairs(suite, mine, { round, side: sideAt }, run, { sides, ledger });
    flagged.push(...overlong(suite, times, sides[order[0]].benchmarks, setup));
  }
  warnOverlong(flagged, run, ledger);
  const written = {} as Record<Side, SourcedSummary>;
  for (const side of order) {
    const state = sides[side];
    const now = deps.clock.date().toISOString();
    written[side] = await finishSide({ ...at, side }, run, ledger, {
      ...state,
      startedAt: state.startedAt ?? now,
      finishedAt: state.finishedAt ?? now,
      environment: environment[side],
    });
  }
  return written;
}
