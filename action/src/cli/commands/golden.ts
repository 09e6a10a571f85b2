// benchgate golden check|update: the golden outputs of the current checkout
// (docs/budgets-and-golden.md).
import path from "node:path";
import { InputError } from "../../errors.ts";
import { checkGoldenOutputs, type GoldenCheck } from "../../gate/golden-check.ts";
import { goldenHash } from "../../golden/check-golden.ts";
import { booleanFlag, parseFlags, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

const GOLDEN_HELP = `Usage: benchgate golden check|update [options]

Runs the golden commands of benchgate.yml (golden:) in the current checkout and compares the
SHA-256 of each command's stdout and exit code with the checksums file.
  check    exit 1 and show a short diff for every output that changed
  update   rewrite the checksums file (and <name>.out files when golden.outputs is set);
           commit them so reviewers see what changed

Options:
  --config FILE       benchgate.yml (default: benchgate.yml in --repo)
  --repo DIR          the project's root (default: the current directory)
  --target-dir DIR    Cargo target directory for {target} (default: $CARGO_TARGET_DIR, else
                      DIR/target)
  --no-build          skip the build: commands of benchgate.yml
  -h, --help          show this help

Exit codes: 0 all outputs match (or updated), 1 an output changed, 2 bad usage or config,
3 a command could not run.`;

/** update: each output's new hash, then which entries changed. */
function printUpdate(golden: GoldenCheck, machine: Machine): void {
  const { outputs, results, written = [] } = golden;
  const changed = results.filter((r) => !r.ok);
  for (const o of outputs)
    machine.out(
      `${goldenHash(o, machine.sha256).slice(0, 12)}  ${o.name}${o.exitCode === 0 ? "" : ` (exit ${o.exitCode ?? "killed"})`}\n`,
    );
  machine.out(
    `updated ${written.join(", ")}: ${changed.length === 0 ? "nothing changed" : `${changed.length} of ${results.length} entr${results.length === 1 ? "y" : "ies"} changed (${changed.map((c) => c.name).join(", ")})`}\n`,
  );
}

/** check: one line per output (and a diff for each changed one), then the verdict; its exit code. */
function printCheck(golden: GoldenCheck, machine: Machine): number {
  const { results, checksums } = golden;
  const changed = results.filter((r) => !r.ok);
  for (const r of results) {
    machine.out(
      `${r.ok ? "ok      " : "CHANGED "} ${r.name}${r.ok ? "" : `: ${r.message ?? ""}`}\n`,
    );
    if (!r.ok && r.diff !== undefined) machine.out(`${r.diff}\n`);
  }
  machine.out(
    changed.length === 0
      ? `all ${results.length} golden outputs match ${checksums}\n`
      : `${changed.length} of ${results.length} golden outputs changed; if intended, run \`benchgate golden update\` and commit ${checksums}\n`,
  );
  return changed.length === 0 ? EXIT.pass : EXIT.gateFailed;
}

export async function goldenCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseFlags(argv, {
    config: { kind: "string" },
    repo: { kind: "string" },
    "target-dir": { kind: "string" },
    "no-build": { kind: "boolean" },
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    deps.out(GOLDEN_HELP + "\n");
    return EXIT.pass;
  }
  const [action, ...extra] = args.positionals;
  if (action !== "check" && action !== "update")
    throw new InputError("golden needs an action: benchgate golden check|update (see --help)");
  if (extra.length > 0) throw new InputError(`unexpected argument ${JSON.stringify(extra[0])}`);
  const repo = path.resolve(deps.cwd, stringFlag(args, "repo") ?? ".");
  const targetDir = stringFlag(args, "target-dir");
  const golden = await checkGoldenOutputs(
    {
      action,
      repo,
      configFile: path.resolve(
        deps.cwd,
        stringFlag(args, "config") ?? path.join(repo, "benchgate.yml"),
      ),
      build: !booleanFlag(args, "no-build"),
      ...(targetDir === undefined ? {} : { targetDir }),
    },
    deps,
  );
  if (action === "check") return printCheck(golden, deps);
  printUpdate(golden, deps);
  return EXIT.pass;
}
