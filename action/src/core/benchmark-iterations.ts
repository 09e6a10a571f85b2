// How many iterations of the benchmark a Callgrind profile holds, so that two runs that ran
// different numbers of iterations (Criterion iterates for a time, not a count) compare per
// iteration (docs/where.md, "Per iteration"). Pure.
//
// Three ways, in this order:
// 1. A routine named by the caller (an instruction-count suite's benchmark function, called once
//    per run): the calls into it are the iterations.
// 2. Criterion's loop (`Bencher::iter` and its siblings): under `--profile-time 1` Criterion
//    only warms up (0.8.2's src/routine.rs, `profile`: the warm-up lasts one second, and no
//    measurement follows when the profile time is not longer; older versions not checked). The warm-up calls the loop with
//    1, 2, 4, … iterations until a second has passed, so n calls of the loop are 2^n − 1
//    iterations. The benchmark routine is the loop's callee with the largest inclusive cost;
//    when the calls into it are exactly 2^n − 1 it is named ("routine").
// 3. When that callee's calls differ (the closure was inlined into the loop and its callee runs
//    several times per iteration, or the routine was inlined whole), 2^n − 1 alone ("warm-up").
//    This rests on `--profile-time 1`: with a longer time a last batch of a guessed size follows.
// Otherwise there is no iteration count and the two runs are compared whole ("per-run").
import type { InstructionProfile } from "../schemas/instruction-profile.ts";

export type Iterations =
  | {
      readonly count: number;
      readonly method: "routine" | "warm-up";
      readonly routine: string | undefined;
      /** The functions the benchmark's instructions are counted in (keys). */
      readonly scope: readonly string[];
      /** The benchmark's instructions: the calls into the scope. */
      readonly instructions: number;
    }
  | { readonly reason: string };

/** `<a::B<M>>::iter::<u64, F>` → `a::B::iter`: a path without generic arguments. */
export function withoutGenerics(name: string): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < name.length; i++) {
    const ch = name[i] as string;
    const previous = name[i - 1] ?? "";
    if (ch === "<" && (depth > 0 || /[A-Za-z0-9_:]/u.test(previous))) depth++;
    else if (ch === ">" && depth > 0 && previous !== "-")
      depth--; // not the `>` of `->`
    else if (depth === 0 && ch !== "<" && ch !== ">") out += ch;
  }
  return out.replace(/::$/u, "").replace(/::(?=::)/gu, "");
}

/** Criterion's iteration loops: `Bencher::iter`, `iter_batched`, … (sync and async). */
export function isCriterionLoop(name: string): boolean {
  return /^criterion::bencher::(?:Async)?Bencher::iter(?:_[a-z_]+)?$/u.test(withoutGenerics(name));
}

/** The iteration count of a profile; `routine` names the benchmark function when known. */
export function iterationCount(profile: InstructionProfile, routine?: string): Iterations {
  if (routine !== undefined) return namedRoutine(profile, routine);
  const loops = new Set(
    [...profile.functions].filter(([, f]) => isCriterionLoop(f.name)).map(([key]) => key),
  );
  if (loops.size === 0)
    return { reason: "no benchmark routine was named and the profile has no Criterion loop" };
  let loopCalls = 0;
  let instructions = 0;
  const callees = new Map<string, { calls: number; inclusive: number }>();
  for (const arc of profile.arcs) {
    if (loops.has(arc.callee) && !loops.has(arc.caller)) {
      loopCalls += arc.calls;
      instructions += arc.inclusive;
    }
    if (loops.has(arc.caller) && !loops.has(arc.callee)) {
      const c = callees.get(arc.callee) ?? { calls: 0, inclusive: 0 };
      c.calls += arc.calls;
      c.inclusive += arc.inclusive;
      callees.set(arc.callee, c);
    }
  }
  if (loopCalls === 0 || loopCalls > 52)
    return {
      reason: `Criterion's loop was entered ${loopCalls} times: not a warm-up of --profile-time 1`,
    };
  const count = 2 ** loopCalls - 1;
  const scope = [...loops].sort();
  const top = [...callees].sort(
    ([a, x], [b, y]) => y.inclusive - x.inclusive || (a < b ? -1 : a > b ? 1 : 0),
  )[0];
  const named = top !== undefined && top[1].calls === count;
  return {
    count,
    method: named ? "routine" : "warm-up",
    routine: named ? profile.functions.get(top[0])?.name : undefined,
    scope,
    instructions,
  };
}

function namedRoutine(profile: InstructionProfile, routine: string): Iterations {
  const scope = [...profile.functions]
    .filter(([, f]) => f.name === routine)
    .map(([key]) => key)
    .sort();
  let count = 0;
  let instructions = 0;
  for (const key of scope) {
    const f = profile.functions.get(key);
    count += f?.calls ?? 0;
    instructions += f?.inclusive ?? 0;
  }
  if (count === 0) return { reason: "the benchmark routine is not called in the profile" };
  return { count, method: "routine", routine, scope, instructions };
}
