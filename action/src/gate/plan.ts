// The gate's plan: everything that decides what a run measures and how its results are judged,
// read once, validated up front and frozen. The CLI's flags and the action's inputs arrive as
// typed overrides (never as parsed command-line arguments), so a bad flag is reported before any
// config is fetched, and every later step reads settings, budgets and smells from here instead
// of re-parsing benchgate.yml.
import { parseBudgets, type BudgetRule } from "../budgets/parse-budget.ts";
import { parseClaims, type Claim } from "../budgets/parse-claim.ts";
import type { HeadToHead } from "../core/ratios.ts";
import {
  resolveRunConfig,
  type RoundsOverride,
  type RunConfig,
  type Schedule,
} from "../config/run-config.ts";
import { withFilter } from "../config/run-filter.ts";
import { headToHeadPairs } from "../config/suites/variants.ts";
import { suiteBudgetRules } from "./suite-budgets.ts";
import {
  parseFraction,
  resolveSettings,
  SETTING_KEYS,
  type CompareSettings,
} from "../core/settings.ts";
import { InputError } from "../errors.ts";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import type { CountThresholds } from "../core/counts.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { SmellConfig } from "../smells/detect-smells.ts";

/** Statistics settings a caller sets over benchgate.yml's statistics: block. */
export type StatisticsOverrides = {
  -readonly [K in keyof CompareSettings]?: CompareSettings[K];
};

interface JudgeOverrides {
  readonly statistics?: StatisticsOverrides;
}

export interface PlanOverrides extends RoundsOverride, JudgeOverrides {
  /** Replaces every Criterion suite's filter and selects hyperfine commands by name. */
  readonly filter?: string;
  /**
   * Base, head, base in one job (`run --aba`) instead of rounds: it replaces the config's rounds
   * (fixed or auto) as `--rounds N` does, and cannot be combined with another rounds override.
   */
  readonly aba?: boolean;
  /** `run --schedule`: replaces benchgate.yml's `schedule:`. */
  readonly schedule?: Schedule;
  /** `run --no-where`: no "Where it regressed" after the verdict, whatever benchgate.yml says. */
  readonly where?: false;
}

/** How results are judged: what `compare` needs, and the second half of a run. */
export interface Judgement {
  readonly settings: CompareSettings;
  readonly budgets: readonly BudgetRule[];
  /** benchgate.yml's claims: speedups checked on head (budgets/check-claims.ts). */
  readonly claims: readonly Claim[];
  /**
   * The benchmarks of suites with variants, each variant paired with the first: their ratios on
   * both sides are reported (core/ratios.ts). Absent: none.
   */
  readonly headToHead?: readonly HeadToHead[];
  /** benchgate.yml's smells: block. */
  readonly smells: SmellConfig | undefined;
  /** Only a filtered subset is measured: budgets of benchmarks not run are left unchecked. */
  readonly filtered: boolean;
  /** Suites with their own thresholds for deterministic counts (threshold:, noise-floor:). */
  readonly countThresholds: ReadonlyMap<string, CountThresholds>;
}

/** The count thresholds of every suite that sets one, the statistics' for the key it leaves out. */
function suiteCountThresholds(
  document: BenchgateConfig | undefined,
  source: string | undefined,
  settings: CompareSettings,
): ReadonlyMap<string, CountThresholds> {
  const own = new Map<string, CountThresholds>();
  for (const [i, suite] of (document?.suites ?? []).entries()) {
    const counts = suiteKind(suite).deterministicCounts;
    if (counts === undefined) continue;
    const t = counts.thresholds(suite, { key: `/suites/${i}`, source: source ?? "benchgate.yml" });
    if (t.threshold === undefined && t.noiseFloor === undefined) continue;
    own.set(suite.name, {
      threshold: t.threshold ?? settings.countThreshold,
      noiseFloor: t.noiseFloor ?? Math.min(settings.countNoiseFloor, t.threshold ?? Infinity),
    });
  }
  return own;
}

/** A whole run: the suites, rounds and golden commands, and the judgement. */
export interface GatePlan extends Judgement {
  readonly run: RunConfig;
  /** Base, head, base once each (run.rounds is then 1); the noise comes from the two base runs. */
  readonly aba: boolean;
  /** After the verdict, profile the confirmed regressions under Callgrind (docs/where.md). */
  readonly where: boolean;
}

/**
 * The rounds override `--aba` contradicts, named as the flag, or undefined. `--rounds 1` agrees
 * with it (one run of head); anything else asks for rounds or sequential rounds, and one of the
 * two would silently lose.
 */
function abaClash(overrides: PlanOverrides): string | undefined {
  if (overrides.rounds !== undefined && overrides.rounds !== 1)
    return `--rounds ${overrides.rounds}`;
  if (overrides.minRounds !== undefined) return "--min-rounds";
  if (overrides.maxRounds !== undefined) return "--max-rounds";
  if (overrides.timeBudgetMs !== undefined) return "--time-budget";
  return undefined;
}

/** Refuses `--aba` with a rounds override that asks for something else. */
export function checkAbaOverrides(overrides: PlanOverrides): void {
  if (overrides.aba !== true) return;
  const clash = abaClash(overrides);
  if (clash !== undefined)
    throw new InputError(
      `--aba runs base, head, base once each, not rounds: drop ${clash}, or drop --aba for interleaved rounds`,
    );
}

/** The settings written as fractions or percentages ("3%"), in benchgate.yml and as flags. */
export const FRACTION_SETTINGS = [
  "q",
  "noiseFloor",
  "failThreshold",
  "unverifiedThreshold",
  "confidence",
  "power",
  "countThreshold",
  "countNoiseFloor",
] as const;

/** The statistics: block as settings (fractions may be written as "3%"). */
function statisticsFromConfig(stats: BenchgateConfig["statistics"]): StatisticsOverrides {
  const settings: StatisticsOverrides = {};
  for (const key of FRACTION_SETTINGS) {
    const name = SETTING_KEYS[key];
    const value = stats?.[name];
    if (value !== undefined) settings[key] = parseFraction(`statistics.${name}`, value);
  }
  const failOnInconclusive = stats?.["fail-on-inconclusive"];
  if (failOnInconclusive !== undefined) settings.failOnInconclusive = failOnInconclusive;
  if (stats?.crossover !== undefined) settings.crossover = stats.crossover;
  if (stats?.robust !== undefined) settings.robust = stats.robust;
  if (stats?.missing !== undefined) settings.missing = stats.missing;
  const minPeriod = stats?.["min-benchmarks-for-period"];
  if (minPeriod !== undefined) settings.minBenchmarksForPeriod = minPeriod;
  return settings;
}

/** `parse()`, with the file named in its InputError (the parsers name the key). */
function inFile<T>(configFile: string | undefined, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof InputError && configFile !== undefined) {
      const where = error.jsonPath === undefined ? {} : { jsonPath: error.jsonPath };
      throw new InputError(error.message, { source: configFile, ...where }, { cause: error });
    }
    throw error;
  }
}

/**
 * The budgets of benchgate.yml, then the limits its load suites set on themselves
 * (./suite-budgets.ts); errors name the rule and key, and we add the file.
 */
export function budgetRules(
  config: BenchgateConfig | undefined,
  configFile: string | undefined,
): BudgetRule[] {
  return inFile(configFile, () => {
    const own = parseBudgets(config?.budgets);
    return [...own, ...suiteBudgetRules(config, own.length)];
  });
}

/** The claims of benchgate.yml; errors name the claim and key, and we add the file. */
function claimList(config: BenchgateConfig | undefined, configFile: string | undefined): Claim[] {
  return inFile(configFile, () => parseClaims(config?.claims));
}

/** The judgement from a validated benchgate.yml (or none) and the caller's overrides. */
export function judgementFrom(
  document: BenchgateConfig | undefined,
  source: string | undefined,
  overrides: JudgeOverrides & { readonly filtered?: boolean },
): Judgement {
  const settings = resolveSettings({
    ...statisticsFromConfig(document?.statistics),
    ...overrides.statistics,
  });
  return Object.freeze({
    settings,
    budgets: Object.freeze(budgetRules(document, source)),
    claims: Object.freeze(claimList(document, source)),
    headToHead: Object.freeze(headToHeadPairs(document)),
    smells: document?.smells,
    filtered: overrides.filtered === true,
    countThresholds: suiteCountThresholds(document, source, settings),
  });
}

/**
 * Everything `run` refuses in a schema-valid benchgate.yml itself, with no flag given: the
 * ranges of its durations, unique names, each suite kind's own rules, the budgets and claims.
 * `validate` calls it after the schema, so a file it passes is one the run config and the
 * judgement are made from without an error; suites stay optional (`compare --config` needs none).
 */
export function checkConfigDocument(document: BenchgateConfig, source: string): void {
  resolveRunConfig(document, source, { needSuites: false });
  judgementFrom(document, source, {});
}

/** The whole plan from a schema-valid benchgate.yml and the caller's overrides. */
export function gatePlanFrom(
  document: BenchgateConfig,
  source: string,
  overrides: PlanOverrides,
): GatePlan {
  checkAbaOverrides(overrides);
  const aba = overrides.aba === true;
  const rounds: RoundsOverride = aba
    ? { rounds: 1 }
    : {
        ...(overrides.rounds === undefined ? {} : { rounds: overrides.rounds }),
        ...(overrides.minRounds === undefined ? {} : { minRounds: overrides.minRounds }),
        ...(overrides.maxRounds === undefined ? {} : { maxRounds: overrides.maxRounds }),
        ...(overrides.timeBudgetMs === undefined ? {} : { timeBudgetMs: overrides.timeBudgetMs }),
      };
  const schedule = overrides.schedule === undefined ? {} : { schedule: overrides.schedule };
  const loaded = resolveRunConfig(document, source, { needSuites: true, ...rounds, ...schedule });
  const run = overrides.filter === undefined ? loaded : withFilter(loaded, overrides.filter);
  const judgement = judgementFrom(document, source, {
    ...(overrides.statistics === undefined ? {} : { statistics: overrides.statistics }),
    filtered: overrides.filter !== undefined,
  });
  const where = overrides.where !== false && document.where !== false;
  return Object.freeze({ run, aba, where, ...judgement });
}
