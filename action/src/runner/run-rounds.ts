// The measuring half of `benchgate run`: rounds that alternate which side runs first
// (A B | B A | …), every suite once per side per round, each side's outputs of a round ingested,
// validated and written as one summary with the commit, the run order and the fingerprint.
// With `rounds: auto` the first min-rounds rounds run everything; after each later round the
// statistics core looks at the summaries so far, and the next round runs only the benchmarks
// still open, until none is left, max-rounds is reached or the time budget would be exceeded.
import path from "node:path";
import { pinningWarnings } from "../core/environment.ts";
import { InputError, ToolError } from "../errors.ts";
import type { SuitePlan } from "../config/run-config.ts";
import type { Benchmark, BenchSummary } from "../schemas/summary.gen.ts";
import { validateSummary } from "../schemas/validate.ts";
import { GENERATOR } from "../version.ts";
import type { RunDeps, RunOutcome, RunRequest } from "./run-request.ts";
import { InterruptedError } from "../exec/run-step.ts";
import { runSuite } from "./run-suite.ts";
import { budgetStop, estimateRoundMs, narrowSuites, type SuiteTime } from "./sequential-rounds.ts";
import type { Side, SidePaths } from "../config/suites/suite-kind.ts";
import { roundOrder, sideEnv } from "./suite-commands.ts";

function checkUniqueIds(
  benchmarks: readonly Benchmark[],
  suites: ReadonlyMap<string, string>,
): void {
  const seen = new Map<string, string>();
  for (const b of benchmarks) {
    const other = seen.get(b.id);
    if (other !== undefined)
      throw new InputError(
        `benchmark id ${JSON.stringify(b.id.slice(0, 120))} comes from both suite ${JSON.stringify(other)} and ${JSON.stringify(suites.get(b.id) ?? b.suite)}; ids must be unique across suites (use a filter)`,
      );
    seen.set(b.id, b.suite);
  }
}

export interface RoundsOutcome {
  readonly summaries: RunOutcome["summaries"];
  /** How many rounds ran: the fixed count, or where sequential rounds stopped. */
  readonly rounds: number;
  /** The latest round in which every suite ran whole (critcmp's table compares that one). */
  readonly fullRound: number;
}

/** What one round runs: every suite whole, or (after a look) the open benchmarks only. */
interface RoundPlan {
  readonly suites: readonly SuitePlan[];
  /** The open ids; undefined: everything (the rounds before the first look, fixed rounds). */
  readonly active?: ReadonlySet<string>;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

function quoteIds(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).map((id) => JSON.stringify(id.slice(0, 80)));
  return `${shown.join(", ")}${ids.length > 5 ? `, … (${ids.length} in all)` : ""}`;
}

export async function runRounds(
  request: RunRequest,
  sides: Record<Side, SidePaths>,
  commits: Record<Side, string>,
  deps: RunDeps,
): Promise<RoundsOutcome> {
  const { config, out } = request;
  const { progress } = deps;
  const { sequential } = config;
  const planNext = request.planNext;
  if (sequential !== undefined && planNext === undefined)
    throw new ToolError("internal error: rounds: auto needs a planner for the next round");
  const written: Record<Side, { source: string; summary: BenchSummary }[]> = { base: [], head: [] };
  /** Every id measured so far → its suite: what a look's open ids are mapped back to. */
  const suiteOf = new Map<string, string>();
  /** Per side, the ids it has produced: an open one missing later is worth a warning. */
  const seenOn: Record<Side, Set<string>> = { base: new Set(), head: new Set() };
  /** Each suite's latest run (both sides): the time budget's estimate of the next round. */
  const latest = new Map<string, SuiteTime>();
  let plan: RoundPlan = { suites: config.suites };
  let fullRound = 0;
  let round = 1;
  progress.startRounds(config.rounds, sequential?.minRounds);
  const roundsStarted = deps.clock.now();
  for (; ; round++) {
    const roundStarted = deps.clock.now();
    progress.startRound();
    const thisRound = new Map<string, SuiteTime>();
    for (const side of roundOrder(round)) {
      if (deps.signal.aborted) throw new InterruptedError(`interrupted before round ${round}`);
      const environment = await deps.environment(sides[side].worktree);
      // Said once, at the start, where someone watching can still stop and fix the machine;
      // the report and comment repeat it for every side.
      if (round === 1 && side === roundOrder(1)[0])
        for (const warning of pinningWarnings(environment))
          progress.warn(`${warning} (an unpinned runner: see docs/runner-host.md)`);
      const startedAt = deps.clock.date().toISOString();
      const benchmarks: Benchmark[] = [];
      const suiteOfRound = new Map<string, string>();
      const missing: string[] = [];
      for (const suite of plan.suites) {
        const t0 = deps.clock.now();
        const found = await runSuite(
          suite,
          { side, round, out, paths: sides[side], env: sideEnv(deps.env, sides[side]) },
          deps,
        );
        const ms = deps.clock.now() - t0;
        const before = thisRound.get(suite.name);
        thisRound.set(suite.name, {
          ms: (before?.ms ?? 0) + ms,
          benchmarks: Math.max(before?.benchmarks ?? 0, found.length),
        });
        // A custom harness runs whole, and Criterion without an exact-id filter runs every
        // benchmark of its own filter: a round's summary holds exactly the open benchmarks.
        const { active } = plan;
        const kept = active === undefined ? found : found.filter((b) => active.has(b.id));
        if (active !== undefined) {
          const got = new Set(found.map((b) => b.id));
          for (const id of active)
            if (suiteOf.get(id) === suite.name && seenOn[side].has(id) && !got.has(id))
              missing.push(id);
        }
        for (const b of kept) {
          suiteOfRound.set(b.id, suite.name);
          seenOn[side].add(b.id);
        }
        benchmarks.push(...kept);
        progress.line(
          `${progress.roundLabel(round)} · ${side}${side === roundOrder(round)[0] ? " (first)" : ""} · ${suiteLabel(suite)}: ${plural(kept.length, "benchmark")} in ${(ms / 1000).toFixed(1)} s`,
        );
      }
      checkUniqueIds(benchmarks, suiteOfRound);
      for (const [id, suite] of suiteOfRound) suiteOf.set(id, suite);
      if (missing.length > 0)
        progress.warn(
          `${progress.roundLabel(round)} · ${side}: ${plural(missing.length, "open benchmark")} missing from this round's output (${quoteIds(missing)})`,
        );
      const source = path.join(out, "summaries", `${side}-${round}.json`);
      const summary = validateSummary(
        {
          schema_version: 1,
          side,
          round,
          // compare replays the stopping rule from these numbers.
          ...(sequential === undefined
            ? {}
            : { sequential: { min_rounds: sequential.minRounds, max_rounds: config.rounds } }),
          commit: commits[side],
          ref: side === "base" ? request.baseRef : request.headRef,
          started_at: startedAt,
          finished_at: deps.clock.date().toISOString(),
          generator: {
            ...GENERATOR,
            input: `benchgate run (${plural(config.suites.length, "suite")})`,
          },
          environment,
          benchmarks,
        } satisfies BenchSummary,
        source,
      );
      await deps.writer.writeText(source, JSON.stringify(summary, null, 2) + "\n");
      written[side].push({ source, summary });
    }
    progress.line(progress.finishRound(round));
    if (plan.active === undefined) fullRound = round;
    for (const [name, time] of thisRound) latest.set(name, time);
    if (round >= config.rounds) {
      if (sequential !== undefined)
        progress.line(
          `stopping after round ${round}: max-rounds reached, ${plural(plan.active?.size ?? suiteOf.size, "benchmark")} still open`,
        );
      break;
    }
    if (sequential === undefined || planNext === undefined || round < sequential.minRounds)
      continue;

    const next = planNext(written.base, written.head);
    progress.line(next.line);
    if (next.active.size === 0) {
      progress.line(`stopping after round ${round}: every benchmark is settled`);
      break;
    }
    const narrowed = narrowSuites(config.suites, next.active, suiteOf);
    if (narrowed.run.length === 0) {
      // The core named only ids no suite of this run produced: nothing could measure them.
      progress.warn(
        `stopping after round ${round}: no suite measures the ${plural(next.active.size, "open benchmark")} (${quoteIds([...next.active])})`,
      );
      break;
    }
    const openIn = (suite: SuitePlan): number =>
      narrowed.unfiltered.includes(suite.name)
        ? Number.POSITIVE_INFINITY
        : suite.kind === "hyperfine"
          ? suite.commands.length
          : [...next.active].filter((id) => suiteOf.get(id) === suite.name).length;
    if (sequential.timeBudgetMs !== undefined) {
      const roundMs = deps.clock.now() - roundStarted;
      const suitesMs = [...thisRound.values()].reduce((sum, t) => sum + t.ms, 0);
      const estimate = estimateRoundMs(narrowed.run, openIn, latest, roundMs - suitesMs);
      const why = budgetStop(sequential.timeBudgetMs, deps.clock.now() - roundsStarted, estimate);
      if (why !== undefined) {
        progress.line(
          `stopping after round ${round}: ${why} (estimated from each suite's latest run); ${plural(next.active.size, "benchmark")} still open`,
        );
        break;
      }
    }
    for (const name of narrowed.unfiltered)
      progress.warn(
        `suite ${name}: its open benchmarks' ids make a filter too long for one argument (or one is not valid Unicode); it runs with its own filter and only the open benchmarks are kept`,
      );
    progress.line(
      `round ${round + 1} runs ${narrowed.run.map((s) => s.name).join(", ")}${narrowed.skipped.length === 0 ? "" : `; skipped (all settled): ${narrowed.skipped.join(", ")}`}`,
    );
    plan = { suites: narrowed.run, active: next.active };
  }
  return { summaries: written, rounds: round, fullRound };
}

function suiteLabel(suite: SuitePlan): string {
  return `${suite.name} (${suite.kind})`;
}
