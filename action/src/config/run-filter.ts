// `/rebench <filter>` and the action's `filter` input: a regular expression over benchmark ids
// that narrows a run. Criterion applies it itself (its filter argument); hyperfine commands are
// kept when their name matches; custom harnesses cannot be narrowed and run whole.
import { InputError } from "../errors.ts";
import type { RunConfig, SuitePlan } from "./run-config.ts";

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
    if (suite.kind === "criterion") suites.push({ ...suite, filter });
    else if (suite.kind === "hyperfine") {
      const commands = suite.commands.filter((c) => re.test(c.name));
      if (commands.length > 0) suites.push({ ...suite, commands });
    } else suites.push(suite);
  }
  return Object.freeze({ ...config, suites: Object.freeze(suites) });
}
