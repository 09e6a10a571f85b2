// benchgate golden check|update: the golden outputs of the current checkout (SPEC §3.5).
import path from "node:path";
import { resolveRunConfig } from "../../config/run-config.ts";
import { InputError } from "../../errors.ts";
import { goldenHash } from "../../golden/check-golden.ts";
import { checkGoldenIn, produceGoldenOutputs, writeGolden } from "../../runner/golden-step.ts";
import { runStep } from "../../exec/run-step.ts";
import { expandArgv } from "../../config/placeholders.ts";
import { readConfigFile } from "../../ingest/read-document.ts";
import { booleanFlag, parseArgs, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

export const GOLDEN_HELP = `Usage: benchgate golden check|update [options]

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

export async function goldenCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseArgs(argv, {
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
  const system = deps;
  const repo = path.resolve(system.cwd, stringFlag(args, "repo") ?? ".");
  const configFile = path.resolve(
    system.cwd,
    stringFlag(args, "config") ?? path.join(repo, "benchgate.yml"),
  );
  const config = resolveRunConfig(await readConfigFile(deps.reader, configFile), configFile, {
    needSuites: false,
  });
  const plan = config.golden;
  if (plan === undefined)
    throw new InputError("no golden: block (golden.checksums and golden.commands)", {
      source: configFile,
    });
  const envTarget = system.env["CARGO_TARGET_DIR"];
  const target = path.resolve(
    repo,
    stringFlag(args, "target-dir") ??
      (envTarget !== undefined && envTarget !== "" ? envTarget : "target"),
  );
  const places = { target, worktree: repo };
  const env = { ...system.env, CARGO_TARGET_DIR: target };

  const interrupts = system.interrupts();
  try {
    if (!booleanFlag(args, "no-build"))
      for (const step of config.build) {
        const command = expandArgv(step.command, places);
        deps.err(`benchgate: build: ${command.join(" ")}\n`);
        await runStep(system.proc, `build: ${command.join(" ")}`, command, {
          cwd: repo,
          env,
          timeoutMs: step.timeoutMs,
          signal: interrupts.signal,
        });
      }
    const goldenDeps = {
      proc: system.proc,
      reader: deps.reader,
      sha256: system.sha256,
      env,
      signal: interrupts.signal,
    };
    const outputs = await produceGoldenOutputs(plan, repo, places, goldenDeps);
    const results = await checkGoldenIn(plan, repo, outputs, goldenDeps);
    const changed = results.filter((r) => !r.ok);
    if (action === "update") {
      const written = await writeGolden(plan, repo, outputs, {
        writer: deps.writer,
        sha256: system.sha256,
      });
      for (const o of outputs)
        deps.out(
          `${goldenHash(o, system.sha256).slice(0, 12)}  ${o.name}${o.exitCode === 0 ? "" : ` (exit ${o.exitCode ?? "killed"})`}\n`,
        );
      deps.out(
        `updated ${written.join(", ")}: ${changed.length === 0 ? "nothing changed" : `${changed.length} of ${results.length} entr${results.length === 1 ? "y" : "ies"} changed (${changed.map((c) => c.name).join(", ")})`}\n`,
      );
      return EXIT.pass;
    }
    for (const r of results) {
      deps.out(
        `${r.ok ? "ok      " : "CHANGED "} ${r.name}${r.ok ? "" : `: ${r.message ?? ""}`}\n`,
      );
      if (!r.ok && r.diff !== undefined) deps.out(`${r.diff}\n`);
    }
    deps.out(
      changed.length === 0
        ? `all ${results.length} golden outputs match ${plan.checksums}\n`
        : `${changed.length} of ${results.length} golden outputs changed; if intended, run \`benchgate golden update\` and commit ${plan.checksums}\n`,
    );
    return changed.length === 0 ? EXIT.pass : EXIT.gateFailed;
  } finally {
    interrupts.dispose();
  }
}
