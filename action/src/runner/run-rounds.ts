// The measuring half of `benchgate run`: k rounds that alternate which side runs first
// (A B | B A | …), every suite once per side per round, each side's outputs of a round ingested,
// validated and written as one summary with the commit, the run order and the fingerprint.
import path from "node:path";
import { pinningWarnings } from "../core/environment.ts";
import { InputError } from "../errors.ts";
import type { SuitePlan } from "../config/run-config.ts";
import type { Benchmark, BenchSummary } from "../schemas/summary.gen.ts";
import { validateSummary } from "../schemas/validate.ts";
import { GENERATOR } from "../version.ts";
import type { RunDeps, RunOutcome, RunRequest } from "./run-gate.ts";
import { InterruptedError } from "./run-step.ts";
import { runSuite } from "./run-suite.ts";
import { roundOrder, sideEnv, type Side, type SidePaths } from "./suite-commands.ts";

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

export async function runRounds(
  request: RunRequest,
  sides: Record<Side, SidePaths>,
  commits: Record<Side, string>,
  deps: RunDeps,
): Promise<RunOutcome["summaries"]> {
  const { config, out } = request;
  const { progress } = deps;
  const written: Record<Side, { source: string; summary: BenchSummary }[]> = { base: [], head: [] };
  progress.startRounds(config.rounds);
  for (let round = 1; round <= config.rounds; round++) {
    progress.startRound();
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
      const suiteOf = new Map<string, string>();
      for (const suite of config.suites) {
        const t0 = deps.clock.now();
        const found = await runSuite(
          suite,
          { side, round, out, paths: sides[side], env: sideEnv(deps.env, sides[side]) },
          deps,
        );
        for (const b of found) suiteOf.set(b.id, suite.name);
        benchmarks.push(...found);
        progress.line(
          `round ${round}/${config.rounds} · ${side}${side === roundOrder(round)[0] ? " (first)" : ""} · ${suiteLabel(suite)}: ${found.length} benchmark${found.length === 1 ? "" : "s"} in ${((deps.clock.now() - t0) / 1000).toFixed(1)} s`,
        );
      }
      checkUniqueIds(benchmarks, suiteOf);
      const source = path.join(out, "summaries", `${side}-${round}.json`);
      const summary = validateSummary(
        {
          schema_version: 1,
          side,
          round,
          commit: commits[side],
          ref: side === "base" ? request.baseRef : request.headRef,
          started_at: startedAt,
          finished_at: deps.clock.date().toISOString(),
          generator: {
            ...GENERATOR,
            input: `benchgate run (${config.suites.length} suite${config.suites.length === 1 ? "" : "s"})`,
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
  }
  return written;
}

function suiteLabel(suite: SuitePlan): string {
  return `${suite.name} (${suite.kind})`;
}
