// What the suite kinds that run a Cargo bench target share (criterion, divan, gungraun): the
// target's keys in benchgate.yml, how they become `cargo bench` arguments, and the build of the
// bench binary once per side (the rounds then only run it).
import { InputError } from "../../errors.ts";
import { checkRelativePath, type Argv } from "../config-checks.ts";
import type { CargoBenchTarget, ConfigAt } from "./suite-kind.ts";

/** The same keys as benchgate.yml writes them (schema-valid). */
interface RawCargoBenchTarget {
  readonly bench: string;
  readonly "manifest-path"?: string;
  readonly package?: string;
  readonly features?: readonly string[];
  readonly args?: readonly string[];
}

/** The target's part of a plan; the manifest path must stay inside the repository. */
export function cargoBenchTarget(raw: RawCargoBenchTarget, at: ConfigAt): CargoBenchTarget {
  const manifest = raw["manifest-path"];
  return {
    bench: raw.bench,
    ...(manifest === undefined
      ? {}
      : { manifestPath: checkRelativePath(manifest, `${at.key}/manifest-path`, at.source) }),
    ...(raw.package === undefined ? {} : { package: raw.package }),
    features: [...(raw.features ?? [])],
    args: [...(raw.args ?? [])],
  };
}

/** A harness's positional filter: one that starts with "-" would be read as an option. */
export function checkFilter(filter: string | undefined, tool: string, at: ConfigAt): void {
  if (filter?.startsWith("-") === true)
    throw new InputError(
      `the filter must not start with '-' (${tool} would read it as an option)`,
      {
        source: at.source,
        jsonPath: `${at.key}/filter`,
      },
    );
}

/** `--bench B [--manifest-path M] [--package P] [--features F,…]`. */
export function cargoTargetArgs(target: CargoBenchTarget): string[] {
  const args = ["--bench", target.bench];
  if (target.manifestPath !== undefined) args.push("--manifest-path", target.manifestPath);
  if (target.package !== undefined) args.push("--package", target.package);
  if (target.features.length > 0) args.push("--features", target.features.join(","));
  return args;
}

/** Builds the bench binary once per side (and writes Cargo.lock when the crate has none). */
export function cargoBenchBuildArgv(target: CargoBenchTarget): Argv {
  return ["cargo", "bench", "--no-run", ...cargoTargetArgs(target)];
}
