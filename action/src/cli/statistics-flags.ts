// The statistics flags of `compare` and `run`: their spec, their help, and their values as typed
// overrides of benchgate.yml's `statistics:` block.
import { parseFraction, SETTING_KEYS } from "../core/settings.ts";
import { FRACTION_SETTINGS, type StatisticsOverrides } from "../gate/plan.ts";
import { InputError } from "../errors.ts";
import { booleanFlag, stringFlag, type FlagSpec, type ParsedArgs } from "./args.ts";

export const SETTING_FLAGS: FlagSpec = {
  q: { kind: "string" },
  "noise-floor": { kind: "string" },
  "fail-threshold": { kind: "string" },
  "unverified-threshold": { kind: "string" },
  confidence: { kind: "string" },
  power: { kind: "string" },
  "count-threshold": { kind: "string" },
  "count-noise-floor": { kind: "string" },
  "fail-on-inconclusive": { kind: "boolean" },
  "no-crossover": { kind: "boolean" },
  "no-robust": { kind: "boolean" },
  missing: { kind: "string" },
  unpaired: { kind: "boolean" },
};

export const SETTING_FLAGS_HELP = `Statistics (override benchgate.yml's statistics: block):
  --q F                     Benjamini-Hochberg false-discovery rate (default 0.05)
  --noise-floor F           δ0: smallest slowdown worth testing for (default 1%)
  --fail-threshold F        a regression must be at least this large (default 3%)
  --unverified-threshold F  one run per side: only this large a change can fail (default 10%)
  --confidence F            level of the reported intervals (default 0.95)
  --power F                 power at which the minimum detectable effect is quoted (default 0.8)
  --count-threshold F       deterministic counts (instructions): a change this large fails
                            (default 1%; a suite's own threshold: wins)
  --count-noise-floor F     deterministic counts: smaller changes are not noted (default 0.1%)
  --fail-on-inconclusive    exit 1 when a regression can be neither confirmed nor ruled out
  --no-crossover            do not fit the run-order effect in the round model
  --no-robust               the mean of the rounds at any number of rounds (by default, from 12
                            rounds on: the median, with the sign test under its p-value)
  --missing fail|warn       a benchmark in base but not in head fails the gate (default) or warns
  --unpaired                compare runs that are not paired by round number as independent
                            samples (without it, rounds that do not pair are an error)
  F is a fraction (0.03) or a percentage (3%).`;

/**
 * The statistics flags as typed overrides, checked here so a bad flag is reported before any
 * config is read; benchgate.yml's statistics: block sits under them (gate/plan.ts).
 */
export function statisticsOverrides(args: ParsedArgs): StatisticsOverrides {
  const overrides: StatisticsOverrides = {};
  for (const key of FRACTION_SETTINGS) {
    const name = SETTING_KEYS[key];
    const fromFlag = stringFlag(args, name);
    if (fromFlag !== undefined) overrides[key] = parseFraction(`--${name}`, fromFlag);
  }
  if (booleanFlag(args, "fail-on-inconclusive")) overrides.failOnInconclusive = true;
  if (booleanFlag(args, "no-crossover")) overrides.crossover = false;
  if (booleanFlag(args, "no-robust")) overrides.robust = false;
  const missing = stringFlag(args, "missing");
  if (missing !== undefined) {
    if (missing !== "fail" && missing !== "warn")
      throw new InputError(`--missing must be "fail" or "warn", got ${JSON.stringify(missing)}`);
    overrides.missing = missing;
  }
  if (booleanFlag(args, "unpaired")) overrides.unpaired = true;
  return overrides;
}
