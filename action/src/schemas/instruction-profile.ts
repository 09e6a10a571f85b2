// The vocabulary of "Where it regressed" (issue 29, docs/where.md), shared by the three pure
// layers that speak it side by side: ingest/callgrind reads a Callgrind file into an
// InstructionProfile, core/instruction-diff.ts turns two profiles into an InstructionDiff, and
// render/ draws both (the comment's "Where" block, the differential flame graph). The profile is
// hand-written (it is never stored); the diff is report.json's, generated from its schema.

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

// What report.json carries (its `where` object) is generated from schemas/report.v1.schema.json.
export type { FunctionChange, InstructionDiff, IterationBasis } from "./report.gen.ts";
