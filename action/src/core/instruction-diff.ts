// "Where it regressed" (issue 29, docs/where.md): two Callgrind profiles of one benchmark, base
// and head → the change of its instructions per iteration and the functions that changed most,
// by self and by inclusive instructions. Pure.
//
// - Per iteration: each side is divided by its own iteration count (benchmark-iterations.ts);
//   when either side has none, both are compared whole and the basis says why.
// - Matching: by function key (object base name and demangled name without hash), so two builds
//   of the same code line up; a function on one side only has 0 on the other.
// - The total is the benchmark's instructions (the calls into Criterion's loop or the named
//   routine), not the whole run's: start-up and reporting are not the benchmark.
// - The rankings hold the functions the benchmark runs (the loop or routine and what it calls,
//   transitively), not Criterion's start-up and reporting, and only changes of at least
//   NEGLIGIBLE_SHARE of the total: the loop's clock reads, once per batch, change by fractions
//   of an instruction per iteration when the batch sizes differ, and are not where it regressed.
// - The inclusive ranking leaves out the functions that contain the benchmark (the loop and its
//   callers): each holds the whole total and would fill the list with the same number.
import type {
  FunctionChange,
  InstructionDiff,
  InstructionProfile,
  IterationBasis,
} from "../schemas/instruction-profile.ts";
import { iterationCount, type Iterations } from "./benchmark-iterations.ts";

/**
 * Below this |relative change| of the total per iteration, the instructions did not change.
 * Counts are deterministic: two base runs of the demo's `normalize` (2,047 and 4,095 iterations,
 * action/test/fixtures/callgrind-3.19) differ by under 0.001 % per iteration, the rest being the
 * loop's own per-batch cost spread over different counts. 1 % is three orders above that and
 * below the smallest change the demo's instruction counts catch (fnv1a, about +3 %).
 */
export const UNCHANGED_BELOW = 0.01;

/** A function's |change| per iteration below this share of the total is not listed. */
const NEGLIGIBLE_SHARE = 0.001;

/** Functions kept per ranking; the comment shows fewer, report.json these. */
const TOP_FUNCTIONS = 10;

interface DiffOptions {
  /** The benchmark function whose calls are the iterations, when the suite knows it. */
  readonly routine?: string;
  /** The benchmark is a whole run (a command): no iterations are looked for, for this reason. */
  readonly wholeRun?: string;
  readonly top?: number;
}

function relative(base: number, head: number): number | null {
  return base === 0 ? null : (head - base) / base;
}

/** The profiles' iterations as one basis: per iteration only when both sides have a count. */
function basisOf(base: Iterations, head: Iterations): IterationBasis {
  if ("reason" in base) return { kind: "per-run", reason: `base: ${base.reason}` };
  if ("reason" in head) return { kind: "per-run", reason: `head: ${head.reason}` };
  const method = base.method === "routine" && head.method === "routine" ? "routine" : "warm-up";
  const routine = method === "routine" ? (head.routine ?? base.routine) : undefined;
  return {
    kind: "per-iteration",
    base: base.count,
    head: head.count,
    method,
    ...(routine === undefined ? {} : { routine }),
  };
}

/** The functions reachable from `start` along the arcs, forward (callees) or back (callers). */
function reachable(
  profile: InstructionProfile,
  start: readonly string[],
  direction: "callees" | "callers",
): Set<string> {
  const next = new Map<string, string[]>();
  for (const arc of profile.arcs) {
    const [from, to] =
      direction === "callees" ? [arc.caller, arc.callee] : [arc.callee, arc.caller];
    const list = next.get(from) ?? [];
    list.push(to);
    next.set(from, list);
  }
  const found = new Set(start);
  const queue = [...start];
  for (let i = 0; i < queue.length; i++)
    for (const key of next.get(queue[i] as string) ?? [])
      if (!found.has(key)) {
        found.add(key);
        queue.push(key);
      }
  return found;
}

/** The scope's functions and every function that calls them, directly or not. */
function containers(profile: InstructionProfile, scope: readonly string[]): Set<string> {
  const found = reachable(profile, scope, "callers");
  // Without a scope, the functions that hold the whole run are its containers.
  for (const [key, f] of profile.functions) if (f.inclusive >= profile.total) found.add(key);
  return found;
}

/**
 * Per run, the functions whose change of inclusive instructions is all in one call: the change
 * of their calls to one other function is theirs within `floor`. The start-up chain of a program
 * (`_start`, `(below main)`, `main`, a runtime's entry) wraps whatever changed below it: the
 * callee that explains it is listed instead, and what remains are the functions that changed
 * themselves or joined changes from several callees.
 */
function explainedByOneCall(
  base: InstructionProfile,
  head: InstructionProfile,
  floor: number,
): Set<string> {
  const arcChange = new Map<string, { caller: string; change: number }>();
  const add = (arcs: InstructionProfile["arcs"], sign: number): void => {
    for (const a of arcs) {
      if (a.caller === a.callee) continue;
      const key = `${a.caller}\u0001${a.callee}`;
      const seen = arcChange.get(key) ?? { caller: a.caller, change: 0 };
      seen.change += sign * a.inclusive;
      arcChange.set(key, seen);
    }
  };
  add(base.arcs, -1);
  add(head.arcs, 1);
  const inclusive = (p: InstructionProfile, key: string): number =>
    p.functions.get(key)?.inclusive ?? 0;
  const explained = new Set<string>();
  for (const { caller, change } of arcChange.values()) {
    const own = inclusive(head, caller) - inclusive(base, caller);
    if (Math.abs(own - change) < floor) explained.add(caller);
  }
  return explained;
}

function ranked(
  base: InstructionProfile,
  head: InstructionProfile,
  value: (f: { self: number; inclusive: number }) => number,
  divisors: { base: number; head: number },
  keep: (key: string) => boolean,
  floor: number,
  top: number,
): FunctionChange[] {
  const keys = new Set([...base.functions.keys(), ...head.functions.keys()]);
  const rows: FunctionChange[] = [];
  for (const key of keys) {
    if (!keep(key)) continue;
    const b = base.functions.get(key);
    const h = head.functions.get(key);
    const bv = b === undefined ? 0 : value(b) / divisors.base;
    const hv = h === undefined ? 0 : value(h) / divisors.head;
    if (Math.abs(hv - bv) < floor || bv === hv) continue;
    const f = (h ?? b) as { name: string; object: string };
    rows.push({
      name: f.name,
      object: f.object,
      base: bv,
      head: hv,
      change: hv - bv,
      relative: relative(bv, hv),
    });
  }
  rows.sort(
    (x, y) =>
      Math.abs(y.change) - Math.abs(x.change) ||
      (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) ||
      (x.object < y.object ? -1 : x.object > y.object ? 1 : 0),
  );
  return rows.slice(0, top);
}

/** The difference of two profiles of one benchmark, base → head. */
export function diffProfiles(
  base: InstructionProfile,
  head: InstructionProfile,
  options: DiffOptions = {},
): InstructionDiff {
  const top = options.top ?? TOP_FUNCTIONS;
  const whole = options.wholeRun;
  const bi = whole === undefined ? iterationCount(base, options.routine) : { reason: whole };
  const hi = whole === undefined ? iterationCount(head, options.routine) : { reason: whole };
  const basis: IterationBasis =
    whole === undefined ? basisOf(bi, hi) : { kind: "per-run", reason: whole };
  const perIteration = basis.kind === "per-iteration";
  const divisors = perIteration ? { base: basis.base, head: basis.head } : { base: 1, head: 1 };
  const totalOf = (p: InstructionProfile, i: Iterations, d: number): number =>
    (perIteration && !("reason" in i) ? i.instructions : p.total) / d;
  const totalBase = totalOf(base, bi, divisors.base);
  const totalHead = totalOf(head, hi, divisors.head);
  const totalRelative = relative(totalBase, totalHead);
  const scopeOf = (i: Iterations): readonly string[] => ("reason" in i ? [] : i.scope);
  const skip = new Set([...containers(base, scopeOf(bi)), ...containers(head, scopeOf(hi))]);
  // Per run there is no scope: every function of the run is in it.
  const within = perIteration
    ? new Set([
        ...reachable(base, scopeOf(bi), "callees"),
        ...reachable(head, scopeOf(hi), "callees"),
      ])
    : undefined;
  const inScope = (key: string): boolean => within?.has(key) ?? true;
  const floor = NEGLIGIBLE_SHARE * Math.max(totalBase, totalHead);
  // Per iteration the benchmark's containers are known (skip); per run, the wrappers are found
  // by what their calls explain.
  const explained = perIteration ? new Set<string>() : explainedByOneCall(base, head, floor);
  return {
    basis,
    total: {
      base: totalBase,
      head: totalHead,
      change: totalHead - totalBase,
      relative: totalRelative,
    },
    unchanged: totalRelative !== null && Math.abs(totalRelative) < UNCHANGED_BELOW,
    unchanged_below: UNCHANGED_BELOW,
    negligible_share: NEGLIGIBLE_SHARE,
    self: ranked(base, head, (f) => f.self, divisors, inScope, floor, top),
    inclusive: ranked(
      base,
      head,
      (f) => f.inclusive,
      divisors,
      (key) => inScope(key) && !skip.has(key) && !explained.has(key),
      floor,
      top,
    ),
  };
}
