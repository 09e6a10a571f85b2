// `/rebench <filter>` and the action's `filter` input: a regular expression over benchmark ids
// that narrows a run. Each suite kind narrows its own plan (./suites/): Criterion applies it
// itself (its filter argument); hyperfine commands are kept when their name matches; custom
// harnesses cannot be narrowed and run whole.
import { InputError } from "../errors.ts";
import type { RunConfig, SuitePlan } from "./run-config.ts";
import { suiteKind } from "./suites/registry.ts";

export function withFilter(config: RunConfig, filter: string): RunConfig {
  let re: RegExp;
  try {
    re = new RegExp(filter);
  } catch (error) {
    throw new InputError(
      `the filter ${JSON.stringify(filter)} is not a valid regular expression`,
      {},
      { cause: error },
    );
  }
  if (filter.startsWith("-")) throw new InputError("the filter must not start with '-'");
  const suites: SuitePlan[] = [];
  for (const suite of config.suites) {
    const narrowed = suiteKind(suite).filter(suite, re, filter);
    if (narrowed !== undefined) suites.push(narrowed);
  }
  return Object.freeze({ ...config, suites: Object.freeze(suites) });
}
