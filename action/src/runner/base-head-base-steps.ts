// The measuring half of `benchgate run --aba`: base, head, base in one job, every suite run once
// per step as separate processes, for projects that can afford one run per side and no rounds.
// The two base runs are the same code on the same machine minutes apart, so how far they differ
// is this job's run-to-run noise, which the decision reads instead of rounds'
// (core/base-head-base.ts). The runs are saved as base round 1, head round 1 and base round 2,
// each side written the way one side of a round is (round-side.ts), so `compare --aba` reads the
// same summaries by hand.
import { ToolError } from "../errors.ts";
import type { Side, SidePaths } from "../config/suites/suite-kind.ts";
import { runSide } from "./round-side.ts";
import type { RoundsOutcome } from "./run-rounds.ts";
import { emptyLedger, type RoundsRun } from "./rounds-state.ts";
import type { RoundPlan } from "./round-plan.ts";
import type { RunDeps, RunRequest } from "./run-request.ts";
import type { SuiteTime } from "./sequential-rounds.ts";

/** The steps in the order they run, the summary round each is saved as, and its progress name. */
const BASE_HEAD_BASE: readonly {
  readonly side: Side;
  readonly round: number;
  readonly name: string;
}[] = [
  { side: "base", round: 1, name: "base (1/2)" },
  { side: "head", round: 1, name: "head" },
  { side: "base", round: 2, name: "base (2/2)" },
];

export async function runBaseHeadBase(
  request: RunRequest,
  sides: Record<Side, SidePaths>,
  commits: Record<Side, string>,
  deps: RunDeps,
): Promise<RoundsOutcome> {
  const { config } = request;
  // The plan refuses these with the user's flags named (gate/plan.ts, cli/commands/run.ts).
  if (config.sequential !== undefined || config.rounds !== 1 || request.shard !== undefined)
    throw new ToolError(
      "internal error: base, head, base runs each step once, without rounds or shards",
    );
  const { progress } = deps;
  const run: RoundsRun = { request, sides, commits, deps };
  const ledger = emptyLedger();
  const plan: RoundPlan = { suites: config.suites };
  // Shared by the three steps: a step's expected benchmark count is what the one before gave.
  const times = new Map<string, SuiteTime>();
  progress.startSteps(BASE_HEAD_BASE.map((s) => s.name));
  for (const [i, step] of BASE_HEAD_BASE.entries()) {
    progress.startRound();
    const at = { side: step.side, round: step.round, plan, times, label: step.name };
    ledger.written[step.side].push(await runSide(at, run, ledger));
    progress.line(progress.finishRound(i + 1));
  }
  // Base ran rounds 1 and 2, head round 1: round 1 is the one both sides have (critcmp's).
  return { summaries: ledger.written, rounds: 2, fullRound: 1 };
}
