// Where a run's benchgate.yml comes from: a file the caller names, or the base commit. The base
// commit is the default so that a change cannot loosen its own gate (its budgets, thresholds or
// suites): the config under review only takes effect once it is merged.
import { InputError } from "../errors.ts";
import type { Machine } from "../ports/machine.ts";
import { fileAtCommit, resolveCommit } from "../exec/git.ts";
import { MAX_BYTES, parseYamlText, readConfigFile } from "../ingest/read-document.ts";
import { budgetDeprecations } from "../budgets/parse-budget.ts";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import { validateConfig } from "../schemas/validate-document.ts";
import { gatePlanFrom, type GatePlan, type PlanOverrides } from "./plan.ts";

export type PlanSource =
  | { readonly kind: "file"; readonly file: string }
  /** `path` inside the commit `ref` of the repository `repo` (default benchgate.yml). */
  | {
      readonly kind: "commit";
      readonly repo: string;
      readonly ref: string;
      readonly path?: string;
    };

const DEFAULT_CONFIG_PATH = "benchgate.yml";

export async function loadGatePlan(
  source: PlanSource,
  overrides: PlanOverrides,
  machine: Machine,
): Promise<GatePlan> {
  if (source.kind === "file") {
    const config = await readConfigFile(machine.reader, source.file);
    warnDeprecated(config, source.file, machine);
    return gatePlanFrom(config, source.file, overrides);
  }
  const configPath = source.path ?? DEFAULT_CONFIG_PATH;
  const git = { proc: machine.proc, dirs: machine.dirs, env: machine.env };
  const sha = await resolveCommit(source.repo, source.ref, git);
  const text = await fileAtCommit(source.repo, sha, configPath, MAX_BYTES.config, git);
  const where = `${configPath} at ${source.ref} (${sha.slice(0, 12)})`;
  if (text === undefined)
    throw new InputError(
      `the base commit ${source.ref} (${sha.slice(0, 12)}) has no ${configPath}; commit one (benchgate init), or point to another file (the CLI's --config, the action's config input)`,
    );
  const config = validateConfig(parseYamlText(text, where), where);
  warnDeprecated(config, where, machine);
  return gatePlanFrom(config, where, overrides);
}

/** Old spellings still read: said once, where the config is read, so the user can rename them. */
export function warnDeprecated(config: BenchgateConfig, where: string, machine: Machine): void {
  for (const warning of budgetDeprecations(config.budgets))
    machine.err(`benchgate: warning: ${where}: ${warning}\n`);
}
