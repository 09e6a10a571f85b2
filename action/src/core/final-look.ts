// What the looks hand on to the verdicts: each benchmark's final look (the one it stopped at)
// with its sequential p-values, the suites' final looks, and the two pieces both sides apply —
// the settings' thresholds on the log scale and Benjamini–Hochberg over every hypothesis. The
// sequential replay (sequential.ts) uses them at every look to decide who stops; decision.ts
// uses them once on the final looks. Kept apart from both so each imports it and neither the
// other.
import type { Entry } from "../schemas/report.gen.ts";
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkLook, SuiteLook } from "./look-analysis.ts";
import { tQuantile } from "./distributions.ts";
import { benjaminiHochberg } from "./multiple-testing.ts";

/** Why a benchmark got the rounds it got (the report's `stopped.reason`). */
export type StopReason = NonNullable<Entry["stopped"]>["reason"];

export interface Stop {
  readonly reason: StopReason;
  readonly afterRound: number;
}

/** A benchmark's look at which it stopped, with its sequential p-values. */
export interface FinalLook {
  readonly look: BenchmarkLook;
  readonly pUp: number;
  readonly pDown: number;
  readonly weight: number;
  readonly stop: Stop | undefined;
}

export interface FinalSuite {
  readonly look: SuiteLook;
  readonly pUp: number;
  readonly pDown: number;
  readonly weight: number;
}

/** The settings' thresholds on the log scale, and the two-sided z of the confidence level. */
export interface Thresholds {
  /** δ0, the noise floor. */
  readonly logFloor: number;
  /** The fail threshold. */
  readonly logFail: number;
  /** The unverified threshold (one run per side). */
  readonly logUnverified: number;
  readonly zCi: number;
}

export function thresholds(settings: CompareSettings): Thresholds {
  return {
    logFloor: Math.log1p(settings.noiseFloor),
    logFail: Math.log1p(settings.failThreshold),
    logUnverified: Math.log1p(settings.unverifiedThreshold),
    zCi: tQuantile(1 - (1 - settings.confidence) / 2, Infinity),
  };
}

/** Benjamini–Hochberg over the tested benchmarks and the suite shifts, in both directions. */
export function adjustAll(
  finals: readonly FinalLook[],
  suites: readonly FinalSuite[],
): { up: number[]; down: number[] } {
  const tests = finals.filter((f) => f.look.kind === "tested");
  const withShift = suites.filter((s) => s.look.shift !== undefined);
  const up = benjaminiHochberg([...tests.map((f) => f.pUp), ...withShift.map((s) => s.pUp)]);
  const down = benjaminiHochberg([...tests.map((f) => f.pDown), ...withShift.map((s) => s.pDown)]);
  return { up, down };
}
