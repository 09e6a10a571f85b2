// Statistics settings with their defaults (docs/statistics.md §10). Read once, validated, frozen; every error
// names the key so a bad config or flag is fixed in one go.
import { InputError } from "../errors.ts";

export interface CompareSettings {
  /** Benjamini–Hochberg false-discovery rate over all benchmarks. */
  readonly q: number;
  /** δ0: the test's null is "slowdown ≤ δ0" — smaller changes are not worth a failure. */
  readonly noiseFloor: number;
  /** A regression is confirmed only when the estimate is at least this large. */
  readonly failThreshold: number;
  /** With one run per side (no replication), only changes this large can fail the gate. */
  readonly unverifiedThreshold: number;
  /** Level of the reported confidence intervals. */
  readonly confidence: number;
  /** Power at which the minimum detectable effect is quoted. */
  readonly power: number;
  /** Fail the gate (exit 1) when a regression can be neither confirmed nor ruled out. */
  readonly failOnInconclusive: boolean;
  /** Estimate and remove the run-order (period) effect when rounds alternate the order. */
  readonly crossover: boolean;
  /**
   * Fewest benchmarks of a suite in a round for that round's effect (its shared shock and the
   * run order) to be estimated across the suite; below it a suite is analysed per benchmark.
   */
  readonly minBenchmarksForPeriod: number;
  /** A benchmark in base but not in head fails the gate ("fail") or is only reported ("warn"). */
  readonly missing: "fail" | "warn";
  /** Compare runs that are not paired by round as independent samples instead of refusing. */
  readonly unpaired: boolean;
  /**
   * From 12 rounds on, judge a benchmark by the median of its rounds (with the sign test under its
   * p-values) instead of the mean and the SD (median-of-rounds.ts); false keeps the mean.
   */
  readonly robust: boolean;
  /** Deterministic counts (instructions under Valgrind): a change this large fails (counts.ts). */
  readonly countThreshold: number;
  /** Deterministic counts: a change below this is nothing worth a note. */
  readonly countNoiseFloor: number;
}

const DEFAULT_SETTINGS: CompareSettings = Object.freeze({
  q: 0.05,
  noiseFloor: 0.01,
  failThreshold: 0.03,
  unverifiedThreshold: 0.1,
  confidence: 0.95,
  power: 0.8,
  failOnInconclusive: false,
  crossover: true,
  minBenchmarksForPeriod: 10,
  missing: "fail",
  unpaired: false,
  robust: true,
  // A count is exact, so any threshold is "detectable"; 1 % is what a reviewer would still call
  // a regression worth a look, and 0.1 % keeps a changed version string or path from being news.
  countThreshold: 0.01,
  countNoiseFloor: 0.001,
});

/** Names as they appear in benchgate.yml (`statistics:`) and as CLI flags. */
export const SETTING_KEYS = {
  q: "q",
  noiseFloor: "noise-floor",
  failThreshold: "fail-threshold",
  unverifiedThreshold: "unverified-threshold",
  confidence: "confidence",
  power: "power",
  failOnInconclusive: "fail-on-inconclusive",
  crossover: "crossover",
  minBenchmarksForPeriod: "min-benchmarks-for-period",
  missing: "missing",
  unpaired: "unpaired",
  robust: "robust",
  countThreshold: "count-threshold",
  countNoiseFloor: "count-noise-floor",
} as const satisfies Record<keyof CompareSettings, string>;

function fraction(key: string, value: number, { min, max }: { min: number; max: number }): number {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new InputError(`${key} must be a number in [${min}, ${max}], got ${String(value)}`);
  }
  return value;
}

/** Merges overrides over the defaults and checks every range and cross-field rule. */
export function resolveSettings(overrides: Partial<CompareSettings> = {}): CompareSettings {
  const s = { ...DEFAULT_SETTINGS, ...overrides };
  const k = SETTING_KEYS;
  fraction(k.q, s.q, { min: 1e-6, max: 0.5 });
  fraction(k.noiseFloor, s.noiseFloor, { min: 0, max: 1 });
  fraction(k.failThreshold, s.failThreshold, { min: 0, max: 10 });
  fraction(k.unverifiedThreshold, s.unverifiedThreshold, { min: 0, max: 10 });
  fraction(k.confidence, s.confidence, { min: 0.5, max: 0.9999 });
  fraction(k.power, s.power, { min: 0.5, max: 0.999 });
  if (!Number.isInteger(s.minBenchmarksForPeriod) || s.minBenchmarksForPeriod < 2) {
    throw new InputError(`${k.minBenchmarksForPeriod} must be an integer >= 2`);
  }
  if (s.missing !== "fail" && s.missing !== "warn")
    throw new InputError(`${k.missing} must be "fail" or "warn", got ${JSON.stringify(s.missing)}`);
  fraction(k.countThreshold, s.countThreshold, { min: 0, max: 10 });
  fraction(k.countNoiseFloor, s.countNoiseFloor, { min: 0, max: 1 });
  if (s.countThreshold < s.countNoiseFloor) {
    throw new InputError(
      `${k.countThreshold} (${s.countThreshold}) must be >= ${k.countNoiseFloor} (${s.countNoiseFloor})`,
    );
  }
  if (s.failThreshold < s.noiseFloor) {
    throw new InputError(
      `${k.failThreshold} (${s.failThreshold}) must be >= ${k.noiseFloor} (${s.noiseFloor})`,
    );
  }
  return Object.freeze(s);
}

/** Parses "3%", "0.03" or "3 %" into a fraction; used for flags and YAML values. */
export function parseFraction(key: string, raw: string | number): number {
  if (typeof raw === "number") return raw;
  const text = raw.trim();
  const match = /^([+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*(%?)$/i.exec(text);
  if (match === null)
    throw new InputError(`${key}: expected a number or a percentage, got ${JSON.stringify(raw)}`);
  const value = Number(match[1]);
  return match[2] === "%" ? value / 100 : value;
}
