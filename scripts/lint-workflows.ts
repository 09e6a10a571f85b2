// `node scripts/lint-workflows.ts`: actionlint and zizmor (offline) over every workflow in
// .github/workflows and over what `benchgate init` writes, so that any finding fails `npm test`
// and CI (docs/threat-model.md, W11). The tools are the ones scripts/setup.sh installs into
// .benchgate/tools (actionlint in bin/, zizmor in a Python venv), else whatever is on PATH.
// Without them the lint is skipped with a warning on a developer's machine, and fails in CI.
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const TOOLS_DIR = path.join(ROOT, ".benchgate/tools");
const ACTIONLINT_CONFIG = path.join(ROOT, ".github/actionlint.yaml");
const CLI = path.join(ROOT, "action/src/cli/index.ts");
/** A well-formed pin for linting the init output; not a real commit of anything. */
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

/** A temporary directory with `benchgate init`'s output (workflows and benchgate.yml). */
export function initOutputDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "benchgate-init-lint-"));
  const result = spawnSync(
    process.execPath,
    [CLI, "init", "--dir", dir, "--action-ref", PLACEHOLDER_PINNED_REF, "--bench", "demo"],
    { encoding: "utf8" },
  );
  if (result.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`benchgate init failed (exit ${String(result.status)}): ${result.stderr}`);
  }
  return dir;
}

function run(command: string, args: readonly string[], cwd: string): { ok: boolean; out: string } {
  const r = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}${r.error ? String(r.error) : ""}` };
}

/** Lints the workflows under `repo`/.github/workflows with both tools; one result per tool. */
export function lintRepo(repo: string, label: string, tools: ResolvedTools): LintResult[] {
  const dir = path.join(repo, ".github/workflows");
  const files = readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => path.join(dir, name));
  const actionlint = run(
    tools.actionlint,
    ["-no-color", "-config-file", ACTIONLINT_CONFIG, ...files],
    repo,
  );
  // --no-config: no configuration file can switch an audit off; every exception is an inline
  // `# zizmor: ignore[…]` next to its reason. Any finding, of any severity, fails.
  const zizmor = run(
    tools.zizmor,
    ["--offline", "--no-config", "--no-progress", "--color=never", "--format=plain", dir],
    repo,
  );
  return [
    { tool: "actionlint", target: label, ok: actionlint.ok, output: actionlint.out.trim() },
    { tool: "zizmor", target: label, ok: zizmor.ok, output: zizmor.out.trim() },
  ];
}

/** Both targets: this repository's workflows and a fresh `benchgate init` output. */
export function lintAll(tools: ResolvedTools): LintResult[] {
  const initDir = initOutputDir();
  try {
    return [
      ...lintRepo(ROOT, ".github/workflows", tools),
      ...lintRepo(initDir, "benchgate init output", tools),
    ];
  } finally {
    rmSync(initDir, { recursive: true, force: true });
  }
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
      process.stderr.write(`── ${result.tool} on ${result.target}: no findings\n`);
    } else {
      failed++;
      process.stderr.write(`── ${result.tool} on ${result.target}: findings\n${result.output}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main());
