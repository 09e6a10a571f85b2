// "Where it regressed" (issue 29, docs/where.md), after the verdict: each confirmed regression of
// a suite whose kind can profile one benchmark (SuiteKind.profile: Criterion) runs once per side
// under Callgrind (./profile-benchmark.ts); the two profiles' difference per iteration
// (core/instruction-diff.ts) goes into report.json's entry as `where`, the comment shows it under
// the table, and both profiles and a differential flame graph land in OUT/where/, named by the
// regression's index, never by its id. Bounded: the largest WHERE_MAX_REGRESSIONS regressions,
// within a time cap that is a small share of the run's time. It never changes the verdict: a
// failure is a note on the entry ("Where could not be computed: …"), and the report is checked
// against its schema again before it is written.
import path from "node:path";
import { diffProfiles } from "../core/instruction-diff.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { BenchBinary, ProfiledCommand, Side, SidePaths } from "../config/suites/suite-kind.ts";
import type { SuitePlan } from "../config/run-config.ts";
import { InterruptedError } from "../exec/run-step.ts";
import { ToolError } from "../errors.ts";
import { parseCallgrind } from "../ingest/callgrind/callgrind-profile.ts";
import type { Machine } from "../ports/machine.ts";
import { renderComment } from "../render/comment.ts";
import { flameDiffSvg } from "../render/flame-diff-svg.ts";
import { capLength, sanitizeText } from "../render/sanitize-text.ts";
import { formatExactChange } from "../number-text.ts";
import type { Progress } from "../runner/progress.ts";
import { cacheLockFile } from "../runner/run-benchmarks.ts";
import { sideEnv } from "../runner/suite-commands.ts";
import type {
  BenchReport,
  Entry,
  FunctionChange,
  InstructionDiff,
  Where,
} from "../schemas/report.gen.ts";
import { validateReport } from "../schemas/validate-document.ts";
import type { Decision } from "./decide.ts";
import type { Measurement, MeasureTarget } from "./measure.ts";
import type { GatePlan } from "./plan.ts";
import {
  benchRun,
  MAX_PROFILE_BYTES,
  profileBothSides,
  type CallgrindRun,
} from "./profile-benchmark.ts";
import { recordedProfiles, routineIn } from "./recorded-profiles.ts";
import type { RecordedProfile } from "../ingest/gungraun/gungraun-profiles.ts";

/** What timings.json calls the step's Callgrind runs. */
const WHERE_STEP = "valgrind (where)";

/** Regressions profiled per run, the largest first. */
export const WHERE_MAX_REGRESSIONS = 5;
/** The step's time cap: this share of the run's time so far, … */
const WHERE_SHARE = 0.1;
/** … but at least this long, so that one regression of a short run still gets its answer. */
export const WHERE_MIN_MS = 60_000;

/** The time the Where step may take after a run that took `elapsedMs`. */
export function whereCapMs(elapsedMs: number): number {
  return Math.max(WHERE_MIN_MS, WHERE_SHARE * elapsedMs);
}

/** What the step needs of the machine. */
export type WhereMachine = Pick<
  Machine,
  "proc" | "dirs" | "reader" | "writer" | "clock" | "interrupts" | "env"
>;

export interface WhereContext {
  readonly suites: readonly SuitePlan[];
  /** Per side, the bench executables the run built, by suite name (runner's RunOutcome). */
  readonly binaries: Readonly<Record<Side, ReadonlyMap<string, BenchBinary>>> | undefined;
  /** Both sides' worktrees, still in place (the run kept them), where commands are run. */
  readonly sides: Readonly<Record<Side, SidePaths>> | undefined;
  readonly out: string;
  /**
   * The run's cache, whose lock the step takes again: the executables are in its target
   * directories, which another run must not rebuild while they are profiled.
   */
  readonly cacheDir: string;
  readonly progress: Progress;
  /** The run's time so far, which the cap is a share of. */
  readonly elapsedMs: number;
  /**
   * Added to each profiled regression's number in its files' names: a shard's own range, so
   * that the files of every shard of a run have names of their own. Default 0.
   */
  readonly fileOffset?: number;
}

/** The machine for the step after `measurement`: its Callgrind runs are a tool's time in timings.json. */
export function whereMachine(machine: Machine, measurement: Measurement): Machine {
  return { ...machine, proc: measurement.timings.wrap(machine.proc, WHERE_STEP) };
}

/** Whether a run of `plan` must keep its worktrees for Where: some suite's benchmarks are commands. */
export function keepsCheckoutsForWhere(plan: GatePlan): boolean {
  return plan.where && plan.run.suites.some((s) => suiteKind(s).profileCommand !== undefined);
}

/** The step's context after `measurement` of a run into `target` (gate/run-gate.ts, run-shard.ts). */
export function whereContext(
  plan: GatePlan,
  measurement: Measurement,
  target: Pick<MeasureTarget, "out" | "cacheDir">,
  fileOffset = 0,
): WhereContext {
  return {
    suites: plan.run.suites,
    binaries: measurement.benchBinaries,
    sides: measurement.checkouts?.sides,
    out: target.out,
    cacheDir: target.cacheDir,
    progress: measurement.progress,
    elapsedMs: measurement.progress.elapsedMs(),
    fileOffset,
  };
}

/** A profile is untrusted and long names are real (generics): capped to the schema's lengths. */
function capped(diff: InstructionDiff): InstructionDiff {
  const row = (r: FunctionChange): FunctionChange => ({
    ...r,
    name: capLength(r.name, 1024),
    object: capLength(r.object, 256),
  });
  const { basis } = diff;
  return {
    ...diff,
    basis:
      basis.kind === "per-run"
        ? { ...basis, reason: capLength(basis.reason, 2048) }
        : basis.routine === undefined
          ? basis
          : { ...basis, routine: capLength(basis.routine, 1024) },
    self: diff.self.slice(0, 10).map(row),
    inclusive: diff.inclusive.slice(0, 10).map(row),
  };
}

const seconds = (ms: number): number => Math.round(ms / 100) / 10;

/** Profiles one regression (or reads its recorded profiles) and writes its files; throws when it cannot. */
async function whereOf(
  entry: Entry,
  target: ProfileTarget,
  index: number,
  ctx: WhereContext,
  deadline: number,
  machine: WhereMachine,
  signal: AbortSignal,
): Promise<Where> {
  const started = machine.clock.now();
  const texts =
    target.kind === "run"
      ? await profileBothSides(
          entry.id,
          target.runs,
          { out: ctx.out, progress: ctx.progress, deadline, signal },
          machine,
        )
      : {
          base: await machine.reader.readText(target.base.file, MAX_PROFILE_BYTES),
          head: await machine.reader.readText(target.head.file, MAX_PROFILE_BYTES),
        };
  const files = {
    base: `where/${index}-base.callgrind`,
    head: `where/${index}-head.callgrind`,
    flame_diff: `where/${index}-flame-diff.svg`,
  };
  const profiles = {
    base: parseCallgrind(texts.base, files.base),
    head: parseCallgrind(texts.head, files.head),
  };
  // Nothing counted: the toggle's function never ran (an id the harness does not know), which
  // would read as "unchanged".
  for (const side of ["base", "head"] as const)
    if (target.kind === "run" && profiles[side].total === 0)
      throw new ToolError(
        `Callgrind counted no instructions on ${side}: the harness ran no benchmark by this id`,
      );
  const routine =
    target.kind === "recorded"
      ? routineIn(profiles.head, target.head.functionName ?? target.base.functionName)
      : undefined;
  const wholeRun = target.kind === "run" ? target.wholeRun : undefined;
  const diff = capped(
    diffProfiles(profiles.base, profiles.head, {
      ...(routine === undefined ? {} : { routine }),
      ...(wholeRun === undefined ? {} : { wholeRun }),
    }),
  );
  const svg = flameDiffSvg(profiles.base, profiles.head, diff.basis, {
    title: `Where: ${capLength(entry.id, 200)}`,
  });
  await machine.dirs.ensure(path.join(ctx.out, "where"));
  await machine.writer.writeText(path.join(ctx.out, files.base), texts.base);
  await machine.writer.writeText(path.join(ctx.out, files.head), texts.head);
  await machine.writer.writeText(path.join(ctx.out, files.flame_diff), svg);
  const took = machine.clock.now() - started;
  const most =
    diff.self[0] === undefined
      ? ""
      : `, most in ${sanitizeText(diff.self[0].name, { maxLength: 80 })}`;
  const change = diff.unchanged
    ? "instructions unchanged"
    : `${formatExactChange(diff.total.relative)} instructions`;
  const how = target.kind === "run" ? "" : ", from the suite's own profiles";
  ctx.progress.line(
    `where: ${sanitizeText(entry.id, { maxLength: 120 })}: ${change}${most} (${seconds(took)} s${how})`,
  );
  return { diff, files, seconds: seconds(took) };
}

/**
 * What one regression's Where reads: its benchmark run under Callgrind on each side (a bench
 * executable's benchmark, or a command, compared whole), or the profiles the suite's own runs
 * wrote.
 */
type ProfileTarget =
  | {
      readonly kind: "run";
      readonly runs: Readonly<Record<Side, CallgrindRun>>;
      readonly wholeRun?: string;
    }
  | {
      readonly kind: "recorded";
      readonly base: RecordedProfile;
      readonly head: RecordedProfile;
    };

/** The regression's profile target, or why it has none (before anything runs). */
async function targetOf(
  entry: Entry,
  ctx: WhereContext,
  machine: WhereMachine,
): Promise<ProfileTarget | { readonly why: string }> {
  const suite = ctx.suites.find((s) => s.name === entry.suite);
  if (suite === undefined) return { why: "its suite is not in this run" };
  const kind = suiteKind(suite);
  if (kind.recordedProfile !== undefined) {
    const recorded = await recordedProfiles(suite, entry.id, ctx.out, machine);
    return recorded === undefined
      ? { why: "the suite's runs left no single Callgrind file of it on both sides" }
      : { kind: "recorded", ...recorded };
  }
  if (kind.profileCommand !== undefined) return commandTarget(suite, entry.id, ctx, machine);
  const run = kind.profile;
  if (run === undefined)
    return { why: kind.noWhere ?? `not yet for ${suite.kind} suites (docs/where.md)` };
  const base = ctx.binaries?.base.get(suite.name);
  const head = ctx.binaries?.head.get(suite.name);
  if (base === undefined || head === undefined)
    return {
      why: "it runs the bench executable cargo names when it builds it, and cargo named none on both sides",
    };
  return {
    kind: "run",
    runs: { base: benchRun(base, run, entry.id), head: benchRun(head, run, entry.id) },
    ...(run.wholeRun === undefined ? {} : { wholeRun: run.wholeRun }),
  };
}

/** A command's target: the command of benchmark `id` as each side's suite ran it, in its worktree. */
function commandTarget(
  suite: SuitePlan,
  id: string,
  ctx: WhereContext,
  machine: WhereMachine,
): ProfileTarget | { readonly why: string } {
  const { sides } = ctx;
  if (sides === undefined) return { why: "the run's worktrees were not kept for it" };
  const kind = suiteKind(suite);
  const base = kind.profileCommand?.(suite, id, sides.base);
  const head = kind.profileCommand?.(suite, id, sides.head);
  if (base === undefined || head === undefined)
    return { why: "no command of its suite has its name" };
  // The environment the suite's step had: the side's (runner/run-suite.ts's stepEnv), or the
  // command's own fixed one.
  const run = (command: ProfiledCommand, paths: SidePaths): CallgrindRun => ({
    argv: command.argv,
    ...(command.stage === undefined
      ? {}
      : { stage: { from: command.argv[0], name: command.stage } }),
    cwd: paths.worktree,
    env: command.exactEnv ?? {
      ...sideEnv(machine.env, paths),
      ...(paths.suiteEnv?.get(suite.name) ?? {}),
    },
    children: command.children,
  });
  return {
    kind: "run",
    runs: { base: run(base, sides.base), head: run(head, sides.head) },
    wholeRun: head.wholeRun,
  };
}

/**
 * The `where` of every confirmed regression, by its index in report.benchmarks: a diff, or a
 * note saying why there is none.
 */
export async function findWhere(
  report: BenchReport,
  ctx: WhereContext,
  machine: WhereMachine,
): Promise<ReadonlyMap<number, Where>> {
  const regressions = report.benchmarks
    .map((entry, at) => ({ entry, at }))
    .filter(({ entry }) => entry.verdict === "regressed" && entry.secondary !== true)
    .sort((x, y) => (y.entry.change ?? 0) - (x.entry.change ?? 0));
  const result = new Map<number, Where>();
  if (regressions.length === 0) return result;
  const lock = await machine.dirs.lock(cacheLockFile(ctx.cacheDir));
  if ("heldBy" in lock) {
    const note = `Where could not be computed: another run (${lock.heldBy}) took the cache after this one`;
    for (const { at } of regressions) result.set(at, { note: capLength(note, 2048) });
    return result;
  }
  const capMs = whereCapMs(ctx.elapsedMs);
  const deadline = machine.clock.now() + capMs;
  const started = machine.clock.now();
  let profiled = 0;
  let stopped: string | undefined;
  const interrupts = machine.interrupts();
  try {
    for (const { entry, at } of regressions) {
      let target: ProfileTarget | { readonly why: string };
      try {
        target = await targetOf(entry, ctx, machine);
      } catch (error) {
        target = { why: error instanceof Error ? error.message : String(error) };
      }
      if ("why" in target) {
        result.set(at, { note: capLength(`Where could not be computed: ${target.why}`, 2048) });
        continue;
      }
      if (stopped === undefined && profiled >= WHERE_MAX_REGRESSIONS)
        stopped = `only the ${WHERE_MAX_REGRESSIONS} largest regressions are profiled`;
      // Reading recorded profiles takes milliseconds: only a run is held to the cap.
      if (stopped === undefined && target.kind === "run" && deadline - machine.clock.now() < 1000)
        stopped = `the step's time cap (${seconds(capMs)} s) was reached`;
      if (stopped !== undefined) {
        result.set(at, { note: `Where could not be computed: ${stopped}` });
        continue;
      }
      profiled++;
      try {
        result.set(
          at,
          await whereOf(
            entry,
            target,
            (ctx.fileOffset ?? 0) + profiled,
            ctx,
            deadline,
            machine,
            interrupts.signal,
          ),
        );
      } catch (error) {
        if (error instanceof InterruptedError) stopped = "the run was interrupted";
        const why = error instanceof Error ? error.message : String(error);
        ctx.progress.warn(`where: ${sanitizeText(entry.id, { maxLength: 120 })}: ${why}`);
        result.set(at, { note: capLength(`Where could not be computed: ${why}`, 2048) });
      }
    }
  } finally {
    interrupts.dispose();
    await lock.release();
  }
  if (profiled > 0)
    ctx.progress.line(
      `where: ${profiled} regression${profiled === 1 ? "" : "s"} profiled in ${seconds(machine.clock.now() - started)} s (cap ${seconds(capMs)} s)`,
    );
  return result;
}

/** The report with each entry's `where`, checked against the schema again. */
export function withWhere(report: BenchReport, wheres: ReadonlyMap<number, Where>): BenchReport {
  const benchmarks = report.benchmarks.map((entry, at) => {
    const where = wheres.get(at);
    return where === undefined ? entry : { ...entry, where };
  });
  return validateReport({ ...report, benchmarks }, "generated report with where");
}

/** The decision with Where added to its report and comment. */
export async function addWhere(
  decision: Decision,
  ctx: WhereContext,
  machine: WhereMachine,
): Promise<Decision> {
  const wheres = await findWhere(decision.report, ctx, machine);
  if (wheres.size === 0) return decision;
  try {
    const report = withWhere(decision.report, wheres);
    return { ...decision, report, markdown: renderComment(report, decision.comment) };
  } catch (error) {
    // Our bug, but Where must not cost the verdict its report: written without it, and said.
    ctx.progress.warn(`where: left out of the report: ${(error as Error).message}`);
    return decision;
  }
}
