// `node scripts/lint-workflows.ts`: actionlint and zizmor (offline) over every workflow in
// .github/workflows and over what `benchgate init` writes, so that any finding fails `npm test`
// and CI (docs/threat-model.md, W11). init's output is linted the way a user's repository would
// be: a fresh git repository holding only what init wrote, the tools run at its root with no
// config of ours (actionlint finds init's own .github/actionlint.yaml). The benchgate action's
// ref is the one thing a user supplies (`--action-ref owner/repo/action@<SHA>`); without it a
// build from source writes the unpinned `@v0`, and that output must fail zizmor on exactly
// those lines (docs/workflows.md, "Linting the workflows"). The tools are the ones
// scripts/setup.sh installs into .benchgate/tools (actionlint in bin/, zizmor in a Python venv),
// else whatever is on PATH. Without them the lint is skipped with a warning on a developer's
// machine, and fails in CI.
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RELEASED_ACTION } from "../action/src/init/released-action.ts";
import { DEFAULT_ACTION_REF } from "../action/src/init/workflows.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const TOOLS_DIR = path.join(ROOT, ".benchgate/tools");
/** This repository's own actionlint config: never used for init's output. */
export const ACTIONLINT_CONFIG = path.join(ROOT, ".github/actionlint.yaml");
const CLI = path.join(ROOT, "action/src/cli/index.ts");
/**
 * What a user passes as --action-ref: a release commit's SHA. No release exists to name here, so
 * a well-formed stand-in takes its place; it is not a real commit of anything.
 */
export const PLACEHOLDER_PINNED_REF = `benchgate/benchgate/action@${"0".repeat(40)}`;

export interface LintTools {
  readonly actionlint: string | undefined;
  readonly zizmor: string | undefined;
}

export interface ResolvedTools {
  readonly actionlint: string;
  readonly zizmor: string;
}

export interface LintResult {
  readonly tool: "actionlint" | "zizmor";
  readonly target: string;
  readonly ok: boolean;
  readonly output: string;
  /** When `ok` is a finding that must be there: what it is, for the log. */
  readonly expected?: string;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env["PATH"] ?? "").split(path.delimiter)) {
    const file = path.join(dir, name);
    if (dir !== "" && executable(file)) return file;
  }
  return undefined;
}

export function findTools(): LintTools {
  const local = (file: string): string | undefined => (executable(file) ? file : undefined);
  return {
    actionlint: local(path.join(TOOLS_DIR, "bin/actionlint")) ?? onPath("actionlint"),
    zizmor: local(path.join(TOOLS_DIR, "venv/bin/zizmor")) ?? onPath("zizmor"),
  };
}

/**
 * A fresh git repository holding only `benchgate init ARGS`' output (workflows, actionlint's
 * label config, benchgate.yml): actionlint looks for its project, and its config, from the
 * repository root.
 */
export function initOutputDir(args: readonly string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "benchgate-init-lint-"));
  const git = spawnSync("git", ["init", "--quiet", dir], { encoding: "utf8" });
  const result =
    git.status === 0
      ? spawnSync(process.execPath, [CLI, "init", "--dir", dir, "--bench", "demo", ...args], {
          encoding: "utf8",
        })
      : git;
  if (result.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`benchgate init failed (exit ${String(result.status)}): ${result.stderr}`);
  }
  return dir;
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
): { ok: boolean; out: string; stdout: string } {
  const r = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return {
    ok: r.status === 0,
    out: `${r.stdout}${r.stderr}${r.error ? String(r.error) : ""}`,
    stdout: r.stdout,
  };
}

// --no-config: no configuration file can switch an audit off; every exception is an inline
// `# zizmor: ignore[…]` next to its reason. Any finding, of any severity, fails.
const ZIZMOR_ARGS = ["--offline", "--no-config", "--no-progress", "--color=never"] as const;

/**
 * Lints the workflows under `repo`/.github/workflows with both tools; one result per tool.
 * `actionlintConfig`: this repository's own config file; without it actionlint reads the config
 * of the git repository the files are in (its .github/actionlint.yaml), as it would for a user.
 */
export function lintRepo(
  repo: string,
  label: string,
  tools: ResolvedTools,
  actionlintConfig?: string,
): LintResult[] {
  const dir = path.join(repo, ".github/workflows");
  const files = readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => path.join(dir, name));
  const actionlint = run(
    tools.actionlint,
    [
      "-no-color",
      ...(actionlintConfig === undefined ? [] : ["-config-file", actionlintConfig]),
      ...files,
    ],
    repo,
  );
  const zizmor = run(tools.zizmor, [...ZIZMOR_ARGS, "--format=plain", dir], repo);
  return [
    { tool: "actionlint", target: label, ok: actionlint.ok, output: actionlint.out.trim() },
    { tool: "zizmor", target: label, ok: zizmor.ok, output: zizmor.out.trim() },
  ];
}

interface ZizmorFinding {
  readonly ident: string;
  readonly locations: readonly { readonly concrete: { readonly feature: string } }[];
}

/**
 * zizmor on init's output with its default action ref, from a build that knows no release SHA:
 * it must report unpinned-uses on the benchgate action's lines, and nothing else. It passes when
 * it fails so, since hiding that finding would be hiding an unpinned action from the user.
 */
export function lintUnpinnedDefault(repo: string, tools: ResolvedTools): LintResult {
  const target = `benchgate init output with ${DEFAULT_ACTION_REF} (no release SHA known)`;
  const zizmor = run(tools.zizmor, [...ZIZMOR_ARGS, "--format=json", repo], repo);
  let findings: ZizmorFinding[];
  try {
    findings = JSON.parse(zizmor.stdout) as ZizmorFinding[];
  } catch {
    return { tool: "zizmor", target, ok: false, output: zizmor.out.trim() };
  }
  const expected = (finding: ZizmorFinding): boolean =>
    finding.ident === "unpinned-uses" &&
    finding.locations.every((l) => l.concrete.feature.includes(DEFAULT_ACTION_REF));
  const ok = !zizmor.ok && findings.length > 0 && findings.every(expected);
  if (!ok)
    return {
      tool: "zizmor",
      target,
      ok,
      output: `expected only unpinned-uses of ${DEFAULT_ACTION_REF}, got:\n${zizmor.out.trim()}`,
    };
  return {
    tool: "zizmor",
    target,
    ok,
    output: zizmor.out.trim(),
    expected: `${findings.length} unpinned-uses of ${DEFAULT_ACTION_REF}, as it must: a user pins it with --action-ref owner/repo/action@<SHA>`,
  };
}

/** Lints init's output for ARGS as a user's repository; LABEL names it in the results. */
function lintInit(args: readonly string[], label: string, tools: ResolvedTools): LintResult[] {
  const dir = initOutputDir(args);
  try {
    return lintRepo(dir, label, tools);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * This repository's workflows (with its own actionlint config), and init's output as a user's
 * repository: self-hosted and GitHub-hosted with a pinned action ref, and the default ref. A
 * released CLI's default ref is pinned and must lint clean; a source build's is `@v0`, which
 * actionlint accepts and zizmor must report.
 */
export function lintAll(tools: ResolvedTools): LintResult[] {
  const pinned = ["--action-ref", PLACEHOLDER_PINNED_REF];
  const results = [
    ...lintRepo(ROOT, ".github/workflows", tools, ACTIONLINT_CONFIG),
    ...lintInit(pinned, "benchgate init --action-ref <SHA>", tools),
    ...lintInit(
      [...pinned, "--runner", "github-hosted"],
      "benchgate init --runner github-hosted --action-ref <SHA>",
      tools,
    ),
  ];
  const dir = initOutputDir([]);
  try {
    const [actionlint, zizmor] = lintRepo(dir, "benchgate init", tools);
    if (actionlint !== undefined) results.push(actionlint);
    if (RELEASED_ACTION !== undefined) {
      if (zizmor !== undefined) results.push(zizmor);
    } else results.push(lintUnpinnedDefault(dir, tools));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

function main(): number {
  const tools = findTools();
  const missing = (["actionlint", "zizmor"] as const).filter((name) => tools[name] === undefined);
  if (tools.actionlint === undefined || tools.zizmor === undefined) {
    const why = `${missing.join(" and ")} not found (bash scripts/setup.sh installs them into .benchgate/tools)`;
    if (process.env["CI"] !== undefined && process.env["CI"] !== "") {
      process.stderr.write(`── workflow lint failed: ${why}\n`);
      return 1;
    }
    process.stderr.write(`── workflow lint skipped: ${why}\n`);
    return 0;
  }
  let failed = 0;
  for (const result of lintAll({ actionlint: tools.actionlint, zizmor: tools.zizmor })) {
    if (result.ok) {
      process.stderr.write(
        `── ${result.tool} on ${result.target}: ${result.expected ?? "no findings"}\n`,
      );
    } else {
      failed++;
      process.stderr.write(`── ${result.tool} on ${result.target}: findings\n${result.output}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main());
