// benchgate init: sets a repository up for the gate: the three workflows and a starter
// benchgate.yml (docs/workflows.md). The texts come from action/src/init/, the same
// templates benchgate's own .github/workflows are generated from.
import path from "node:path";
import { InputError } from "../../errors.ts";
import { docsUrl } from "../../version.ts";
import { actionlintConfig, customRunnerLabels } from "../../init/actionlint-config.ts";
import { benchTargets, harnessOf, type BenchTargets } from "../../init/cargo-benches.ts";
import { starterConfig } from "../../init/starter-config.ts";
import {
  ACTIONLINT_CONFIG_PATH,
  RUNNER_KINDS,
  type RunnerKind,
} from "../../init/workflow-options.ts";
import {
  DEFAULT_ACTION_REF,
  DEFAULT_BRANCH,
  DEFAULT_RUNNER_LABELS,
  MAX_WORKFLOW_SHARDS,
  isPinnedActionRef,
  renderWorkflows,
  type WorkflowOptions,
} from "../../init/workflows.ts";
import { booleanFlag, integerFlag, listFlag, parseFlags, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

const INIT_HELP = `Usage: benchgate init [--dir DIR] [--action-ref REF] [--runner self-hosted|github-hosted]
                      [--runner-labels A,B] [--shards N] [--bench NAME...]

Sets a Rust repository up for benchgate by writing
  .github/workflows/benchgate-pr.yml       pull requests from this repository, on your runner
  .github/workflows/benchgate-command.yml  /rebench and /benchgate accept in PR comments
  .github/workflows/benchgate-main.yml     every push to the default branch
  .github/actionlint.yaml                  the runner's custom labels, for actionlint (only if
                                           absent; not with --runner github-hosted)
  benchgate.yml                            one suite per bench target (Criterion, or gungraun /
                                           iai-callgrind: instruction counts), and examples
Existing files are not overwritten without --force.

Options:
  --dir DIR              the repository's root (default: the current directory)
  --action-ref REF       the action: owner/repo/path@REF (default: ${DEFAULT_ACTION_REF},
                         ${isPinnedActionRef(DEFAULT_ACTION_REF) ? "the release this CLI was published with" : "a build from source: pin a release instead"}).
                         Pin it to a full 40-hex commit SHA: a tag can be moved to other code,
                         and zizmor reports it ("Installing a release" in the action's docs)
  --runner KIND          where the measure job runs: self-hosted (default; a dedicated, pinned
                         machine) or github-hosted (ubuntu-latest: shared, so timing verdicts
                         are wider and instruction counts are recommended; see the docs)
  --runner-labels A,B    labels of the self-hosted benchmark runner
                         (default: ${DEFAULT_RUNNER_LABELS.join(",")})
  --default-branch NAME  the branch whose pushes benchgate-main.yml measures (default: ${DEFAULT_BRANCH})
  --shards N             measure on N runners at once (1 to ${MAX_WORKFLOW_SHARDS}; default 1): the measure job
                         becomes a matrix of N jobs (shard 1/N … N/N) on runners with the
                         labels above, and one report job decides over all of them. The
                         runners must be identical pinned machines, each shard runs its own
                         rounds within the time budget, and a failed or missing shard is an
                         error verdict
  --bench NAME...        bench targets (default: every [[bench]] with harness = false in
                         DIR/Cargo.toml); one whose source uses gungraun or iai_callgrind gets a
                         gungraun suite, any other a Criterion suite
  --workflows-only       write only the workflows (e.g. to update them), not benchgate.yml
  --force                overwrite existing files
  -h, --help             show this help

Exit codes: 0 written, 2 bad usage or a file already exists (nothing is written then).

Docs: ${docsUrl("docs/workflows.md")} (the workflows),
${docsUrl("docs/github-hosted.md")} (GitHub-hosted runners),
${docsUrl("docs/action.md")} (the action, pinning a release).`;

const CONFIG_FILE = "benchgate.yml";
const MAX_CARGO_TOML_BYTES = 1024 * 1024;
const MAX_BENCH_SOURCE_BYTES = 1024 * 1024;
const MAX_ACTIONLINT_CONFIG_BYTES = 1024 * 1024;

const RUNNER_STEPS = [
  `Register a self-hosted runner for this repository (or a runner group that only it may use)
     with the labels above, on a dedicated machine: no secrets, nothing else of value on it.`,
  `Pin the machine: sudo scripts/prepare-runner-host.sh --apply (from benchgate's repository),
     and run the runner service on the isolated cores; the guide:
     ${docsUrl("docs/runner-host.md")}`,
] as const;

const REPOSITORY_STEPS = [
  `Settings → Actions: require approval for all outside contributors; keep the default
     GITHUB_TOKEN read-only.`,
  `Branch protection (or a ruleset) for the default branch: require the "benchgate" check.`,
  "CODEOWNERS: maintainers review benchgate.yml, baselines/ and .github/.",
  `Commit, push, open a pull request. A fork's pull request runs only after a maintainer
     comments /rebench; benchgate reads benchgate.yml from the base, so it gates from the
     first pull request after this one is merged.`,
] as const;

/** The numbered next steps: a GitHub-hosted runner needs no machine of one's own. */
function nextSteps(runner: RunnerKind): string {
  const steps = [...(runner === "self-hosted" ? RUNNER_STEPS : []), ...REPOSITORY_STEPS];
  return `\nNext steps:\n${steps.map((text, i) => `  ${i + 1}. ${text}`).join("\n")}`;
}

/**
 * How to try the gate before any of it is committed: an uncommitted benchgate.yml is not read
 * (run reads the base commit's), so the command names it with --config.
 */
function tryLocally(dir: string, cwd: string): string {
  const cd = path.resolve(dir) === path.resolve(cwd) ? "" : `cd ${dir} && `;
  return [
    "",
    "Try it locally first, on your last commit (the report lands in .benchgate/run):",
    `  ${cd}benchgate run --config benchgate.yml --base HEAD~1 --head HEAD`,
    "  --config: benchgate.yml is not committed yet, and run reads the base commit's otherwise.",
    "  --time-budget 5m makes a shorter first run; the first build compiles every dependency.",
  ].join("\n");
}

/** The runner flag's value: one of RUNNER_KINDS, default self-hosted. */
function runnerFlag(value: string | undefined): RunnerKind {
  if (value === undefined) return "self-hosted";
  const kind = RUNNER_KINDS.find((k) => k === value);
  if (kind === undefined)
    throw new InputError(
      `--runner: give ${RUNNER_KINDS.join(" or ")}, got ${JSON.stringify(value)}`,
    );
  return kind;
}

/**
 * Writes actionlint's label config unless the repository has one: that file may hold other
 * settings of the user's, so it is never replaced (not even with --force); init says instead
 * which labels it must list.
 */
async function actionlintFile(
  dir: string,
  options: WorkflowOptions,
  deps: Machine,
): Promise<string | undefined> {
  const text = actionlintConfig(options);
  if (text === undefined) return undefined;
  const file = path.join(dir, ACTIONLINT_CONFIG_PATH);
  if ((await deps.reader.kindOf(file)) === undefined) return text;
  const kept = await deps.reader.readText(file, MAX_ACTIONLINT_CONFIG_BYTES);
  const labels = customRunnerLabels(options);
  // Labels are plain words (letters, digits, . _ -): a word test, not YAML, since it only
  // decides whether to remind the user.
  const words = new Set(kept.split(/[^A-Za-z0-9._-]+/));
  if (labels.every((label) => words.has(label))) return undefined;
  deps.out(
    `kept ${file}: its self-hosted-runner labels must include ${labels.join(", ")}, or actionlint reports them as unknown\n`,
  );
  return undefined;
}

/** The bench targets of DIR/Cargo.toml (none, said, when there is no Cargo.toml). */
async function readTargets(dir: string, deps: Machine): Promise<BenchTargets | undefined> {
  const file = path.join(dir, "Cargo.toml");
  if ((await deps.reader.kindOf(file)) === undefined) return undefined;
  return benchTargets(await deps.reader.readText(file, MAX_CARGO_TOML_BYTES));
}

/**
 * Whether each target counts instructions (its source uses gungraun) or is timed by Criterion.
 * The source path comes from Cargo.toml: only a plain relative path inside DIR is read.
 */
async function splitByHarness(
  dir: string,
  names: readonly string[],
  targets: BenchTargets | undefined,
  deps: Machine,
): Promise<{ benches: string[]; gungraun: string[] }> {
  const benches: string[] = [];
  const gungraun: string[] = [];
  for (const name of names) {
    const relative = targets?.paths.get(name) ?? `benches/${name}.rs`;
    const inside =
      !path.isAbsolute(relative) &&
      !relative.includes("\0") &&
      !relative.split(/[\\/]/).includes("..");
    const file = path.join(dir, relative);
    let source = "";
    if (inside && (await deps.reader.kindOf(file)) === "file") {
      try {
        source = await deps.reader.readText(file, MAX_BENCH_SOURCE_BYTES);
      } catch (error) {
        deps.err(
          `benchgate: could not read ${file} (${error instanceof Error ? error.message : String(error)}): taking ${JSON.stringify(name)} for a Criterion bench\n`,
        );
      }
    }
    (harnessOf(source) === "gungraun" ? gungraun : benches).push(name);
  }
  return { benches, gungraun };
}

function detectBenches(
  dir: string,
  targets: BenchTargets | undefined,
  deps: Machine,
): readonly string[] {
  if (targets === undefined) {
    deps.err(
      `benchgate: no Cargo.toml in ${dir}: benchgate.yml gets no suites (use --bench NAME)\n`,
    );
    return [];
  }
  for (const { name, reason } of targets.skipped)
    deps.err(`benchgate: skipping [[bench]] ${JSON.stringify(name)}: ${reason}\n`);
  if (targets.benches.length === 0)
    deps.err(
      `benchgate: no bench target in ${path.join(dir, "Cargo.toml")} (in a workspace, name them with --bench and add package: to each suite)\n`,
    );
  return targets.benches;
}

export async function initCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseFlags(argv, {
    dir: { kind: "string" },
    "action-ref": { kind: "string" },
    runner: { kind: "string" },
    "runner-labels": { kind: "string" },
    "default-branch": { kind: "string" },
    shards: { kind: "string" },
    bench: { kind: "variadic" },
    "workflows-only": { kind: "boolean" },
    force: { kind: "boolean" },
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    deps.out(INIT_HELP + "\n");
    return EXIT.pass;
  }
  if (args.positionals.length > 0)
    throw new InputError(`init takes no arguments, got ${JSON.stringify(args.positionals[0])}`);
  const dir = stringFlag(args, "dir") ?? deps.cwd;
  if ((await deps.reader.kindOf(dir)) !== "dir")
    throw new InputError("--dir is not a directory", { source: dir });
  const labels = stringFlag(args, "runner-labels");
  const runner = runnerFlag(stringFlag(args, "runner"));
  if (runner === "github-hosted" && labels !== undefined)
    throw new InputError("--runner-labels is for a self-hosted runner, not --runner github-hosted");
  const shards = integerFlag(args, "shards", 1, 1, MAX_WORKFLOW_SHARDS);
  const options: WorkflowOptions = {
    actionRef: stringFlag(args, "action-ref") ?? DEFAULT_ACTION_REF,
    runner,
    runnerLabels:
      labels === undefined
        ? DEFAULT_RUNNER_LABELS
        : labels
            .split(",")
            .map((label) => label.trim())
            .filter((label) => label !== ""),
    defaultBranch: stringFlag(args, "default-branch") ?? DEFAULT_BRANCH,
    shards,
  };
  const files = new Map(renderWorkflows(options));
  const withConfig = !booleanFlag(args, "workflows-only");

  // Check every file before writing any, so a refusal leaves the repository as it was.
  if (!booleanFlag(args, "force")) {
    const existing: string[] = [];
    for (const file of [...files.keys(), ...(withConfig ? [CONFIG_FILE] : [])])
      if ((await deps.reader.kindOf(path.join(dir, file))) !== undefined) existing.push(file);
    if (existing.length > 0)
      throw new InputError(
        `refusing to overwrite ${existing.join(", ")} (use --force to replace them)`,
        { source: dir },
      );
  }
  if (withConfig) {
    const given = listFlag(args, "bench");
    const targets = await readTargets(dir, deps);
    const names = given.length > 0 ? given : detectBenches(dir, targets, deps);
    const benches = await splitByHarness(dir, names, targets, deps);
    files.set(CONFIG_FILE, starterConfig({ ...benches, shards, runner }));
  }
  const lintConfig = await actionlintFile(dir, options, deps);
  if (lintConfig !== undefined) files.set(ACTIONLINT_CONFIG_PATH, lintConfig);
  await deps.dirs.ensure(path.join(dir, ".github/workflows"));
  for (const [file, text] of files) {
    await deps.writer.writeText(path.join(dir, file), text);
    deps.out(`wrote ${path.join(dir, file)}\n`);
  }
  if (!isPinnedActionRef(options.actionRef))
    deps.err(
      `benchgate: warning: ${options.actionRef} is not pinned to a commit SHA (a tag can be moved to other code), and zizmor reports it as unpinned-uses. Pin the release's commit: benchgate init --action-ref ${options.actionRef.replace(/@.*$/, "")}@<40-hex SHA> --workflows-only --force (git ls-remote --tags https://github.com/${options.actionRef.split("/").slice(0, 2).join("/")} lists the tags; a tag's ^{} line is its commit)\n`,
    );
  if (runner === "github-hosted")
    deps.out(
      "runner: GitHub-hosted (ubuntu-latest): shared, so timing verdicts are wider; instruction counts (gungraun suites) are recommended\n",
    );
  else deps.out(`runner labels: ${options.runnerLabels.join(", ")}\n`);
  if (shards > 1)
    deps.out(
      runner === "github-hosted"
        ? `shards: ${shards} measure jobs per run, each on its own GitHub-hosted machine (each shard runs its own rounds within the time budget)\n`
        : `shards: ${shards} measure jobs per run: register ${shards} identical, pinned runners with these labels (each shard runs its own rounds within the time budget)\n`,
    );
  deps.out(`${nextSteps(runner)}\n${tryLocally(dir, deps.cwd)}\n`);
  return EXIT.pass;
}
