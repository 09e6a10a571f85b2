// The vocabulary of "Where it regressed" (issue 29, docs/where.md), shared by the three pure
// layers that speak it side by side: ingest/callgrind reads a Callgrind file into an
// InstructionProfile, core/instruction-diff.ts turns two profiles into an InstructionDiff, and
// render/ draws both (the comment's "Where" block, the differential flame graph). Hand-written
// until report.json carries the diff (then its part of this file comes from schemas/report.json).

/** One function of a profile: instructions executed in it, and with what it called. */
export interface FunctionCost {
  /** Demangled, without a legacy `::h<16 hex>` hash. Untrusted text: escape before output. */
  readonly name: string;
  /** Base name of the object (executable or library) the function is in; "" when not given. */
  readonly object: string;
  /** The source file of its first `fl=`; "" when not given. For display only. */
  readonly file: string;
  /** Instructions executed in the function itself. */
  readonly self: number;
  /** Self plus the inclusive cost of its calls to other functions. */
  readonly inclusive: number;
  /** Calls into it (recursive calls included). */
  readonly calls: number;
}

/** All calls from one function to another, summed over call sites (keys of `functions`). */
export interface CallArc {
  readonly caller: string;
  readonly callee: string;
  readonly calls: number;
  /** Instructions executed in these calls: the callee and everything it called. */
  readonly inclusive: number;
}

export interface InstructionProfile {
  /** The profiled command line as the file states it; undefined when absent. */
  readonly command: string | undefined;
  /** Every instruction collected in the run. */
  readonly total: number;
  /** By function key (object base name and name, see ingest/callgrind's functionKey). */
  readonly functions: ReadonlyMap<string, FunctionCost>;
  readonly arcs: readonly CallArc[];
}

/** How the two sides' counts were made comparable. */
export type IterationBasis =
  | {
      /** Per iteration: each side's counts divided by its own iteration count. */
      readonly kind: "per-iteration";
      readonly base: number;
      readonly head: number;
      /** How the counts were found (see core/instruction-diff.ts, iterationCount). */
      readonly method: "routine" | "warm-up";
      /** The function whose calls are the iterations (method "routine"). */
      readonly routine: string | undefined;
    }
  | {
      /** Whole runs: no iteration count on one side or both; `reason` says why. */
      readonly kind: "per-run";
      readonly reason: string;
    };

/** One function's instructions on both sides, per iteration (or per run, see the basis). */
export interface FunctionChange {
  readonly name: string;
  readonly object: string;
  readonly base: number;
  readonly head: number;
  /** head − base. */
  readonly change: number;
  /** change / base; null when the function did not run on the base side. */
  readonly relative: number | null;
}

export interface InstructionDiff {
  readonly basis: IterationBasis;
  /** The benchmark's instructions (see core/instruction-diff.ts, scope), on each side. */
  readonly total: Omit<FunctionChange, "name" | "object">;
  /** Whether |total.relative| is below `unchangedBelow`: the instructions did not change. */
  readonly unchanged: boolean;
  /** The threshold of `unchanged`, a fraction (0.01 = 1 %). */
  readonly unchangedBelow: number;
  /** Functions whose |change| is below this share of the total are not listed. */
  readonly negligibleShare: number;
  /** The functions with the largest |change| of self instructions, largest first. */
  readonly self: readonly FunctionChange[];
  /** The same for inclusive instructions, without the functions that contain the benchmark. */
  readonly inclusive: readonly FunctionChange[];
}
