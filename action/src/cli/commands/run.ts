// benchgate run --base REF --head REF: the whole gate on one machine (SPEC §3.3, §3.4).
import os from "node:os";
import path from "node:path";
import { resolveRunConfig, type RunConfig } from "../../config/run-config.ts";
import { InputError } from "../../errors.ts";
import { renderComment } from "../../render/comment.ts";
import { renderText } from "../../render/text.ts";
import { critcmpFile } from "../../runner/critcmp-step.ts";
import { fileAtCommit, resolveCommit } from "../../runner/git-worktrees.ts";
import { Progress, formatDuration } from "../../runner/progress.ts";
import { runGate } from "../../runner/run-gate.ts";
import { StepTimings, describeTimings } from "../../runner/step-timings.ts";
import { MAX_BYTES, parseYamlText, readConfigFile } from "../../schemas/read-document.ts";
import { validateConfig } from "../../schemas/validate.ts";
import { booleanFlag, integerFlag, parseArgs, stringFlag } from "../args.ts";
import { EXIT, type CliDeps } from "../deps.ts";
import { budgetRules, gateReport } from "../gate-report.ts";
import { SETTING_FLAGS, SETTING_FLAGS_HELP, settingsFrom } from "../settings-input.ts";

export const RUN_HELP = `Usage: benchgate run --base REF --head REF [options]

Runs the project's benchmarks for two commits and decides what changed. Both commits are checked
out in temporary git worktrees (your checkout is not touched), each side is built once into a
Cargo target directory of its own, then every suite runs in interleaved rounds (base first in odd
rounds, head first in even ones). Every output is ingested and validated; the report, the PR
comment, one summary per side and round, critcmp's table and the tools' logs land in --out.

Options:
  --base REF          the commit to compare against (branch, tag, SHA)
  --head REF          the commit under test
  --config FILE       benchgate.yml to use; default: benchgate.yml as committed in the BASE
                      commit, so a change cannot loosen its own budgets or settings
  --rounds N          rounds of base and head (default: the config's rounds:, else 5)
  --repo DIR          the git repository (default: the current directory)
  --out DIR           output folder (default: .benchgate/run); replaced on every run
  --cache-dir DIR     keeps target-base/ and target-head/ between runs so dependencies are
                      compiled once (default: $BENCHGATE_CACHE_DIR, else ~/.cache/benchgate)
  --quiet             no progress, only the verdict and errors
  -h, --help          show this help

${SETTING_FLAGS_HELP}

Ctrl-C (or SIGTERM, a timeout, a failing benchmark) stops the running tool and removes the
worktrees. Exit codes: 0 pass or inconclusive, 1 the gate failed (regression confirmed, budget
broken, golden output changed), 2 bad usage or invalid config, 3 a tool failed or interrupted.`;

async function loadConfig(
  repo: string,
  baseRef: string,
  file: string | undefined,
  rounds: number | undefined,
  deps: CliDeps,
): Promise<RunConfig> {
  const opts = { needSuites: true, ...(rounds === undefined ? {} : { rounds }) };
  if (file !== undefined)
    return resolveRunConfig(await readConfigFile(deps.reader, file), file, opts);
  const git = { proc: deps.system.proc, dirs: deps.system.dirs, env: deps.system.env };
  const sha = await resolveCommit(repo, baseRef, git);
  const text = await fileAtCommit(repo, sha, "benchgate.yml", MAX_BYTES.config, git);
  const source = `benchgate.yml at ${baseRef} (${sha.slice(0, 12)})`;
  if (text === undefined)
    throw new InputError(
      `the base commit ${baseRef} (${sha.slice(0, 12)}) has no benchgate.yml at the repository root; commit one (benchgate init) or pass --config FILE`,
    );
  return resolveRunConfig(validateConfig(parseYamlText(text, source), source), source, opts);
}

function defaultCacheDir(env: Readonly<Record<string, string>>): string {
  const explicit = env["BENCHGATE_CACHE_DIR"];
  if (explicit !== undefined && explicit !== "") return explicit;
  const xdg = env["XDG_CACHE_HOME"];
  return path.join(
    xdg !== undefined && xdg !== "" ? xdg : path.join(os.homedir(), ".cache"),
    "benchgate",
  );
}

export async function runCommand(argv: readonly string[], deps: CliDeps): Promise<number> {
  const args = parseArgs(argv, {
    base: { kind: "string" },
    head: { kind: "string" },
    config: { kind: "string" },
    rounds: { kind: "string" },
    repo: { kind: "string" },
    out: { kind: "string" },
    "cache-dir": { kind: "string" },
    quiet: { kind: "boolean" },
    help: { kind: "boolean", short: "h" },
    ...SETTING_FLAGS,
  });
  if (booleanFlag(args, "help")) {
    deps.out(RUN_HELP + "\n");
    return EXIT.pass;
  }
  if (args.positionals.length > 0)
    throw new InputError(`unexpected argument ${JSON.stringify(args.positionals[0])} (see --help)`);
  const baseRef = stringFlag(args, "base");
  const headRef = stringFlag(args, "head");
  if (baseRef === undefined || headRef === undefined)
    throw new InputError("run needs --base REF and --head REF (see --help)");
  const system = deps.system;
  const repo = path.resolve(system.cwd, stringFlag(args, "repo") ?? ".");
  const out = path.resolve(system.cwd, stringFlag(args, "out") ?? ".benchgate/run");
  const cacheDir = path.resolve(
    system.cwd,
    stringFlag(args, "cache-dir") ?? defaultCacheDir(system.env),
  );
  const roundsFlag =
    stringFlag(args, "rounds") === undefined ? undefined : integerFlag(args, "rounds", 5, 1, 100);
  const configFile = stringFlag(args, "config");
  const config = await loadConfig(repo, baseRef, configFile, roundsFlag, deps);
  const settings = settingsFrom(config.document, args);
  const budgets = budgetRules(config.document, config.source);
  const quiet = booleanFlag(args, "quiet");
  const progress = new Progress(quiet ? () => undefined : deps.err, system.clock);
  if (config.rounds < 3)
    progress.warn(
      `${config.rounds} round(s): too few to estimate noise; changes are only flagged beyond the unverified threshold`,
    );

  const timings = new StepTimings();
  const interrupts = system.interrupts();
  let outcome;
  try {
    outcome = await runGate(
      { repo, baseRef, headRef, out, cacheDir, config },
      {
        proc: timings.wrap(system.proc),
        dirs: system.dirs,
        reader: deps.reader,
        writer: deps.writer,
        clock: system.clock,
        sha256: system.sha256,
        env: system.env,
        signal: interrupts.signal,
        progress,
        environment: system.environment,
      },
    );
  } finally {
    interrupts.dispose();
  }
  progress.line("comparing");
  const report = gateReport({
    base: outcome.summaries.base,
    head: outcome.summaries.head,
    settings,
    budgets,
    golden: outcome.golden,
    smells: config.document.smells,
    now: deps.now(),
  });
  const reportFile = path.join(out, "report.json");
  const commentFile = path.join(out, "comment.md");
  await deps.writer.writeText(reportFile, JSON.stringify(report, null, 2) + "\n");
  if (outcome.critcmp.table !== undefined)
    await deps.writer.writeText(critcmpFile(out), outcome.critcmp.table);
  else progress.warn(`no critcmp table: ${outcome.critcmp.note ?? "unknown reason"}`);
  await deps.writer.writeText(
    commentFile,
    renderComment(
      report,
      outcome.critcmp.table === undefined ? {} : { critcmpTable: outcome.critcmp.table },
    ),
  );
  const timing = timings.document(progress.elapsedMs());
  await deps.writer.writeText(
    path.join(out, "timings.json"),
    JSON.stringify(timing, null, 2) + "\n",
  );
  progress.line(describeTimings(timing));
  deps.out(renderText(report, {}) + "\n");
  const rel = (p: string): string => path.relative(system.cwd, p) || ".";
  if (!quiet)
    deps.out(`
written to ${rel(out)}/ in ${formatDuration(progress.elapsedMs())}:
  report.json    the verdict and every benchmark with its CI and MDE
  comment.md     the PR comment
  summaries/     one validated summary.json per side and round
  critcmp.txt    critcmp's table of round ${config.rounds}${outcome.critcmp.table === undefined ? " (not written: see the warning)" : ""}
  raw/, logs/    the tools' own output and logs; timings.json: where the time went
`);
  return report.verdict === "fail" ? EXIT.gateFailed : EXIT.pass;
}
