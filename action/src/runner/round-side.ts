// One side of one round of `benchgate run`: every suite of the round's plan run once in that
// side's checkout, the benchmarks still open kept, and the side's outputs of the round ingested,
// validated and written as one summary with the commit, the run order and the fingerprint.
import path from "node:path";
import type { SuitePlan } from "../config/run-config.ts";
import { pinningWarnings } from "../core/environment.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import { InputError } from "../errors.ts";
import { InterruptedError } from "../exec/run-step.ts";
import type { Benchmark, BenchSummary, Environment } from "../schemas/summary.gen.ts";
import { validateSummary } from "../schemas/validate-document.ts";
import { docsUrl, GENERATOR } from "../version.ts";
import type { Progress } from "./progress.ts";
import { plural, quoteIds } from "./rounds-state.ts";
import type { RoundLedger, RoundsRun } from "./rounds-state.ts";
import type { RoundPlan } from "./round-plan.ts";
import { runSuite } from "./run-suite.ts";
import { SuiteProgress } from "./suite-progress.ts";
import type { SuiteTime } from "./sequential-rounds.ts";
import type { Side } from "../config/suites/suite-kind.ts";
import { roundOrder, sideEnv } from "./suite-commands.ts";

/** Which side, which round, what it runs, and where each suite's time is added up. */
export interface SideRound {
  readonly side: Side;
  readonly round: number;
  readonly plan: RoundPlan;
  /** Each suite's time and benchmark count in this round, both sides together. */
  readonly times: Map<string, SuiteTime>;
  /**
   * How progress lines name this side of this round when it is not one of interleaved rounds
   * ("base (2/2)" of base, head, base); default: the round and the side ("round 2/5 · head").
   */
  readonly label?: string;
}

/** The progress lines' name of a side of a round; `first` marks the side that ran first. */
function sideLabel(at: SideRound, progress: Progress, first = false): string {
  if (at.label !== undefined) return at.label;
  const { side, round } = at;
  return `${progress.roundLabel(round)} · ${side}${first && side === roundOrder(round)[0] ? " (first)" : ""}`;
}

/** What the suites of one side gave in one round. */
export interface SideBenchmarks {
  readonly benchmarks: Benchmark[];
  /** This side's ids of this round → their suite. */
  readonly suiteOf: Map<string, string>;
  /** Open ids this side measured before that its suite left out this time. */
  readonly missing: string[];
}

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

function suiteLabel(suite: SuitePlan): string {
  return `${suite.name} (${suite.kind})`;
}

function addTime(times: Map<string, SuiteTime>, suite: string, ms: number, count: number): void {
  const before = times.get(suite);
  times.set(suite, {
    ms: (before?.ms ?? 0) + ms,
    benchmarks: Math.max(before?.benchmarks ?? 0, count),
  });
}

/**
 * The benchmarks of a suite's output that the round measures, and the open ones this side had
 * measured before that are not there. A custom harness runs whole, and Criterion without an
 * exact-id filter runs every benchmark of its own filter: a round's summary holds exactly the
 * open benchmarks.
 */
function keepOpen(
  found: readonly Benchmark[],
  suite: string,
  side: Side,
  plan: RoundPlan,
  ledger: RoundLedger,
): { readonly kept: readonly Benchmark[]; readonly missing: readonly string[] } {
  const { active } = plan;
  if (active === undefined || plan.whole?.has(suite) === true) return { kept: found, missing: [] };
  const got = new Set(found.map((b) => b.id));
  const missing = [...active].filter(
    (id) => ledger.suiteOf.get(id) === suite && ledger.seenOn[side].has(id) && !got.has(id),
  );
  return { kept: found.filter((b) => active.has(b.id)), missing };
}

/**
 * How many benchmarks a suite's run should give, for the progress inside it: what the other side
 * gave in this round, else the open ones it gave before (sequential rounds), else its last run.
 */
function expectedCount(suite: string, at: SideRound, ledger: RoundLedger): number | undefined {
  const thisRound = at.times.get(suite)?.benchmarks;
  if (thisRound !== undefined && thisRound > 0) return thisRound;
  const { active } = at.plan;
  if (active !== undefined) {
    let open = 0;
    for (const [id, of] of ledger.suiteOf) if (of === suite && active.has(id)) open += 1;
    if (open > 0) return open;
  }
  return ledger.latest.get(suite)?.benchmarks;
}

/** Every suite of the plan, in order, on one side; each said in a progress line. */
async function runSuites(
  at: SideRound,
  run: RoundsRun,
  ledger: RoundLedger,
): Promise<SideBenchmarks> {
  const { side, round, plan } = at;
  const { deps, sides } = run;
  const result: SideBenchmarks = { benchmarks: [], suiteOf: new Map(), missing: [] };
  for (const suite of plan.suites) {
    const t0 = deps.clock.now();
    const watch = new SuiteProgress({
      label: `${sideLabel(at, deps.progress)} · ${suite.name}`,
      expected: expectedCount(suite.name, at, ledger),
      clock: deps.clock,
      write: (text) => deps.progress.line(text),
      ...(deps.progress.live ? { status: (text: string) => deps.progress.status(text) } : {}),
    });
    const found = await runSuite(
      suite,
      {
        side,
        round,
        out: run.request.out,
        paths: sides[side],
        env: sideEnv(deps.env, sides[side]),
        watch: { line: (text) => watch.line(text) },
      },
      deps,
    );
    recordSuite(at, { suite, found, ms: deps.clock.now() - t0 }, result, run, ledger);
  }
  return result;
}

/**
 * What one suite gave on one side of a round, added to the side's benchmarks: its time, the
 * open benchmarks kept (and those gone missing), and a progress line.
 */
export function recordSuite(
  at: SideRound,
  ran: { readonly suite: SuitePlan; readonly found: readonly Benchmark[]; readonly ms: number },
  result: SideBenchmarks,
  run: RoundsRun,
  ledger: RoundLedger,
): void {
  const { suite, found, ms } = ran;
  const { side, plan } = at;
  addTime(at.times, suite.name, ms, found.length);
  const { kept, missing } = keepOpen(found, suite.name, side, plan, ledger);
  result.missing.push(...missing);
  for (const b of kept) {
    result.suiteOf.set(b.id, suite.name);
    ledger.seenOn[side].add(b.id);
  }
  result.benchmarks.push(...kept);
  run.deps.progress.line(
    `${sideLabel(at, run.deps.progress, true)} · ${suiteLabel(suite)}: ${plural(kept.length, "benchmark")} in ${(ms / 1000).toFixed(1)} s`,
  );
}

/** The side's summary of the round, validated and written to OUT/summaries/<side>-<round>.json. */
async function writeSummary(
  at: SideRound,
  run: RoundsRun,
  measured: {
    readonly startedAt: string;
    readonly environment: Environment;
    readonly benchmarks: Benchmark[];
    /** When the side's last process ended; default: now. */
    readonly finishedAt?: string;
  },
): Promise<SourcedSummary> {
  const { side, round } = at;
  const { request, deps } = run;
  const { config } = request;
  const { sequential } = config;
  const source = path.join(request.out, "summaries", `${side}-${round}.json`);
  const summary = validateSummary(
    {
      schema_version: 1,
      side,
      round,
      // compare replays the stopping rule from these numbers.
      ...(sequential === undefined
        ? {}
        : {
            sequential: {
              min_rounds: sequential.minRounds,
              max_rounds: config.rounds,
              ...(sequential.timeBudgetMs === undefined
                ? {}
                : { time_budget_ms: sequential.timeBudgetMs }),
            },
          }),
      ...(request.shard === undefined
        ? {}
        : { shard: { index: request.shard.index, count: request.shard.count } }),
      commit: run.commits[side],
      ref: side === "base" ? request.baseRef : request.headRef,
      started_at: measured.startedAt,
      finished_at: measured.finishedAt ?? deps.clock.date().toISOString(),
      generator: {
        ...GENERATOR,
        input: `benchgate run (${plural(config.suites.length, "suite")})`,
      },
      environment: measured.environment,
      benchmarks: measured.benchmarks,
    } satisfies BenchSummary,
    source,
  );
  await deps.writer.writeText(source, JSON.stringify(summary, null, 2) + "\n");
  return { source, summary };
}

/**
 * Said once, at the start, where someone watching can still stop and fix the machine, each with
 * what it means for the timings; the report and comment repeat it for every side.
 */
export function warnIfUnpinned(environment: Environment, progress: Progress): void {
  for (const warning of pinningWarnings(environment))
    progress.warn(`${warning} (see ${docsUrl("docs/runner-host.md")})`);
}

/** Runs one side of one round and writes its summary; the ledger learns the side's ids. */
export async function runSide(
  at: SideRound,
  run: RoundsRun,
  ledger: RoundLedger,
): Promise<SourcedSummary> {
  const { side, round } = at;
  const { deps } = run;
  if (deps.signal.aborted) throw new InterruptedError(`interrupted before round ${round}`);
  const environment = await deps.environment(run.sides[side].worktree);
  if (round === 1 && side === roundOrder(1)[0]) warnIfUnpinned(environment, deps.progress);
  const startedAt = deps.clock.date().toISOString();
  const measured = await runSuites(at, run, ledger);
  return finishSide(at, run, ledger, { ...measured, startedAt, environment });
}

/**
 * A side's round once its suites ran: ids checked unique across suites, the ledger told which
 * suite each came from, open benchmarks that went missing said, and the summary written.
 */
export function finishSide(
  at: SideRound,
  run: RoundsRun,
  ledger: RoundLedger,
  measured: SideBenchmarks & {
    readonly startedAt: string;
    readonly environment: Environment;
    readonly finishedAt?: string;
  },
): Promise<SourcedSummary> {
  const { benchmarks, suiteOf, missing } = measured;
  checkUniqueIds(benchmarks, suiteOf);
  for (const [id, suite] of suiteOf) ledger.suiteOf.set(id, suite);
  if (missing.length > 0)
    run.deps.progress.warn(
      `${sideLabel(at, run.deps.progress)}: ${plural(missing.length, "open benchmark")} missing from this round's output (${quoteIds(missing)})`,
    );
  return writeSummary(at, run, measured);
}
