// benchgate run --base REF --head REF: the whole gate on one machine (docs/run.md; exit codes:
// docs/cli.md), an adapter over gate/: flags → plan → runGate → the verdict and exit code.
import { docsUrl } from "../../version.ts";
import path from "node:path";
import { InputError } from "../../errors.ts";
import { renderText } from "../../render/text.ts";
import { formatDuration } from "../../runner/progress.ts";
import { parseDuration, SCHEDULES, type Schedule } from "../../config/run-config.ts";
import { booleanFlag, integerFlag, parseFlags, stringFlag, type ParsedArgs } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";
import { loadGatePlan } from "../../gate/load-plan.ts";
import { ABA_WITH_SHARD, defaultCacheDir } from "../../gate/measure.ts";
import { checkAbaOverrides, type PlanOverrides } from "../../gate/plan.ts";
import { PartialRunError, runGate, type GateRun } from "../../gate/run-gate.ts";
import { describeShardRun, runShard } from "../../gate/run-shard.ts";
import { parseShard } from "../../core/shard-blocks.ts";
import { SETTING_FLAGS, SETTING_FLAGS_HELP, statisticsOverrides } from "../statistics-flags.ts";

const RUN_HELP = `Usage: benchgate run --base REF --head REF [options]

Runs the project's benchmarks for two commits and decides what changed. Both commits are checked
out in temporary git worktrees (your checkout is not touched), each side is built once into a
Cargo target directory of its own, then the benchmarks run in interleaved rounds (base first in
odd rounds, head first in even ones): by default each benchmark's base and head processes back
to back, short, one benchmark per process (--schedule pairs). Every output is ingested and
validated; the report, the PR comment, one summary per side and round, critcmp's table and the
tools' logs land in --out.

Options:
  --base REF          the commit to compare against (branch, tag, SHA)
  --head REF          the commit under test
  --config FILE       benchgate.yml to use; default: benchgate.yml as committed in the BASE
                      commit, so a change cannot loosen its own budgets or settings
  --rounds N|auto     rounds of base and head (default: the config's rounds:, else 5); auto:
                      sequential rounds, where every benchmark runs --min-rounds rounds, then
                      only the benchmarks whose answer is still open run again, up to
                      --max-rounds or until --time-budget would be exceeded
  --min-rounds N      with auto: rounds every benchmark runs (default: the config's, else 3)
  --max-rounds N      with auto: the most rounds (default: the config's, else 15)
  --time-budget D     with auto: how long the whole run may take, e.g. 15m, counted from its
                      start, builds included (default: the config's time-budget:, else none);
                      after min-rounds no round starts that would end later: when the whole
                      round does not fit, the time goes first to open benchmarks that could
                      fail the gate and can still be settled, then to others that can be
                      settled, then one more round for the rest (docs: below)
  --schedule S        pairs or suite (default: the config's schedule:, else pairs). pairs:
                      each benchmark's base and head processes back to back, short, one
                      benchmark per process (Criterion by exact id, hyperfine by command;
                      other kinds one suite per process); suite: each side runs every suite
                      once per round, one process per suite
  --aba               base, head, base instead of rounds, for one run per side: every suite
                      runs on base, then on head, then on base again (saved as base rounds 1
                      and 2, head round 1) and the two base runs tell the noise. Replaces the
                      config's rounds; refused with --rounds other than 1, --min-rounds,
                      --max-rounds, --time-budget and --shard
  --no-where          no "Where it regressed" after the verdict (default: the config's where:,
                      else on): the 5 largest regressions of Criterion, divan, hyperfine
                      and instructions suites run once per side under Callgrind (gungraun
                      suites': their own profiles), the functions whose instructions
                      changed shown under the table (docs: where.md)
  --filter REGEX      only benchmarks matching REGEX (Criterion's filter; hyperfine command names)
  --shard I/N         measure only shard I of N: every shard computes the same split, runs
                      base and head of its part on this machine and writes its summaries and
                      shard.json, but no verdict; \`benchgate merge\` of all N folders decides.
                      With rounds: auto each shard runs its own looks (docs: below)
  --repo DIR          the git repository (default: the current directory)
  --out DIR           output folder (default: .benchgate/run); replaced on every run
  --cache-dir DIR     keeps target-base/ and target-head/ between runs so dependencies are
                      compiled once (default: $BENCHGATE_CACHE_DIR, else ~/.cache/benchgate)
  --quiet             no progress, only the verdict and errors
  -h, --help          show this help

${SETTING_FLAGS_HELP}

Ctrl-C (or SIGTERM, a timeout, a failing benchmark) stops the running tool and removes the
worktrees. Stopped by Ctrl-C or SIGTERM after a complete round, the run still writes the report
of the rounds both sides completed, marked partial, and exits 3. Exit codes: 0 pass or
inconclusive, 1 the gate failed (regression confirmed, budget broken, golden output changed),
2 bad usage or invalid config, 3 a tool failed or interrupted.

Docs: ${docsUrl("docs/run.md")} (rounds, the time budget, the config),
${docsUrl("docs/shards.md")} (shards).`;

/** --schedule: pairs or suite. */
function scheduleFlag(args: ParsedArgs): Schedule | undefined {
  const raw = stringFlag(args, "schedule");
  if (raw === undefined) return undefined;
  const known = SCHEDULES.find((s) => s === raw);
  if (known === undefined)
    throw new InputError(
      `--schedule must be ${SCHEDULES.join(" or ")}, got ${JSON.stringify(raw)}`,
    );
  return known;
}

/** --rounds: a count, or "auto" for sequential rounds. */
function roundsFlag(args: ParsedArgs): number | "auto" | undefined {
  const raw = stringFlag(args, "rounds");
  if (raw === undefined || raw === "auto") return raw;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 100)
    throw new InputError(
      `--rounds must be "auto" or an integer in [1, 100], got ${JSON.stringify(raw)}`,
    );
  return value;
}

function optionalInteger(
  args: ParsedArgs,
  name: string,
  min: number,
  max: number,
): number | undefined {
  return stringFlag(args, name) === undefined ? undefined : integerFlag(args, name, 0, min, max);
}

/** A duration flag ("20m") in milliseconds; the error names the flag. */
function durationFlag(args: ParsedArgs, name: string): number | undefined {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  try {
    return parseDuration(raw, `--${name}`, "");
  } catch (error) {
    if (error instanceof InputError)
      throw new InputError(`--${name}: ${error.message}`, {}, { cause: error });
    throw error;
  }
}

export async function runCommand(argv: readonly string[], machine: Machine): Promise<number> {
  const args = parseFlags(argv, {
    base: { kind: "string" },
    head: { kind: "string" },
    config: { kind: "string" },
    rounds: { kind: "string" },
    "min-rounds": { kind: "string" },
    "max-rounds": { kind: "string" },
    "time-budget": { kind: "string" },
    schedule: { kind: "string" },
    aba: { kind: "boolean" },
    "no-where": { kind: "boolean" },
    filter: { kind: "string" },
    shard: { kind: "string" },
    repo: { kind: "string" },
    out: { kind: "string" },
    "cache-dir": { kind: "string" },
    quiet: { kind: "boolean" },
    help: { kind: "boolean", short: "h" },
    ...SETTING_FLAGS,
  });
  if (booleanFlag(args, "help")) {
    machine.out(RUN_HELP + "\n");
    return EXIT.pass;
  }
  if (args.positionals.length > 0)
    throw new InputError(`unexpected argument ${JSON.stringify(args.positionals[0])} (see --help)`);
  const baseRef = stringFlag(args, "base");
  const headRef = stringFlag(args, "head");
  if (baseRef === undefined || headRef === undefined)
    throw new InputError("run needs --base REF and --head REF (see --help)");
  // Flags first: a bad flag is reported before the base commit's config is fetched.
  const overrides: PlanOverrides = {
    ...optional("rounds", roundsFlag(args)),
    ...optional("minRounds", optionalInteger(args, "min-rounds", 2, 100)),
    ...optional("maxRounds", optionalInteger(args, "max-rounds", 2, 100)),
    ...optional("timeBudgetMs", durationFlag(args, "time-budget")),
    ...optional("schedule", scheduleFlag(args)),
    ...optional("filter", stringFlag(args, "filter")),
    ...(booleanFlag(args, "aba") ? { aba: true } : {}),
    ...(booleanFlag(args, "no-where") ? { where: false as const } : {}),
    statistics: statisticsOverrides(args),
  };
  checkAbaOverrides(overrides);
  const shardText = stringFlag(args, "shard");
  const shard = shardText === undefined ? undefined : parseShard(shardText, "--shard");
  if (shard !== undefined && overrides.aba === true) throw new InputError(ABA_WITH_SHARD);
  const repo = path.resolve(machine.cwd, stringFlag(args, "repo") ?? ".");
  const configFile = stringFlag(args, "config");
  const plan = await loadGatePlan(
    configFile === undefined
      ? { kind: "commit", repo, ref: baseRef }
      : { kind: "file", file: configFile },
    overrides,
    machine,
  );
  const out = path.resolve(machine.cwd, stringFlag(args, "out") ?? ".benchgate/run");
  const quiet = booleanFlag(args, "quiet");
  const cacheDir = stringFlag(args, "cache-dir") ?? defaultCacheDir(machine.env);
  const target = { repo, baseRef, headRef, out, cacheDir: path.resolve(machine.cwd, cacheDir) };
  const rel = (p: string): string => path.relative(machine.cwd, p) || ".";
  if (shard !== undefined) {
    const run = await runShard(plan, { ...target, shard }, machine, {
      quiet,
      filter: overrides.filter,
    });
    machine.out(`${describeShardRun(run)}\n`);
    if (!quiet)
      machine.out(`
written to ${rel(out)}/ in ${formatDuration(run.measurement.progress.elapsedMs())}:
  shard.json     which shard of which split, the commits, rounds and golden results
  summaries/     one validated summary.json per side and round (this shard's benchmarks)
  critcmp.txt    critcmp's table of round ${run.measurement.critcmp.round} (when critcmp ran)
  raw/, logs/    the tools' own output and logs; timings.json: where the time went
`);
    return EXIT.pass;
  }
  let gate: GateRun;
  try {
    gate = await runGate(plan, target, machine, { quiet });
  } catch (error) {
    // Stopped by a signal after complete rounds: their verdict, said to be partial, then exit 3.
    if (error instanceof PartialRunError) {
      const { report } = error.run;
      if (report.partial !== undefined)
        machine.out(`${report.reasons[0] ?? "partial"} (exit 3: interrupted)\n`);
      machine.out(renderText(report, {}) + "\n");
    }
    throw error;
  }
  const { report, measurement } = gate;
  machine.out(renderText(report, {}) + "\n");
  if (!quiet)
    machine.out(`
written to ${rel(out)}/ in ${formatDuration(measurement.progress.elapsedMs())}:
  report.json    the verdict and every benchmark with its CI and MDE
  comment.md     the PR comment
  summaries/     one validated summary.json per side and round
  critcmp.txt    critcmp's table of round ${measurement.critcmp.round} (when critcmp ran)
  raw/, logs/    the tools' own output and logs; timings.json: where the time went
`);
  return report.verdict === "fail" ? EXIT.gateFailed : EXIT.pass;
}

/** `{ key: value }` when the value is given, else nothing (exact optional properties). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
}
