// A Callgrind output file (`valgrind --tool=callgrind --callgrind-out-file=FILE CMD`) → its
// functions' self and inclusive instruction counts and its call arcs, for "Where it regressed"
// (docs/where.md). Format: https://valgrind.org/docs/manual/cl-format.html. Pure; the caller
// reads the file and caps its size (ingest/read-json.ts's MiB caps).
//
// What is read and why:
// - `events:` names the counts of every cost line; only Ir (instructions) is kept.
// - `positions:` says how many position tokens start a cost line (`line`, `instr`, or both).
//   Positions are validated but not resolved: a profile by function needs no line numbers.
// - `ob=/fl=/fi=/fe=/fn=` say whose costs follow, `cob=/cfi=/cfl=/cfn=` whom the next call
//   reaches, each with name compression: `(id) name` defines, `(id)` refers back (one table for
//   objects, one for files, one for functions, as the format has).
// - `calls=COUNT TARGET` is followed by one cost line: the call's INCLUSIVE cost, never the
//   caller's self cost.
// - `totals:` (else `summary:`) is the run's total, kept beside the sum of self costs.
// - A `version:` line after the first part's `events:` starts another part (one process of a
//   command line that started several, joined into one file): parts' costs add up.
//
// Identity: a function is its object's base name and its name (`functionKey`). Generic Rust
// functions share one demangled name per source function, so their instances are merged, which
// is what a reader looks for; the same name in two objects (`(below main)` in libc and in the
// program) stays two functions, else one would contain the other. The file (`fl=`) is kept for
// display only: the same function is announced with different files when code is inlined.
//
// Names are Valgrind's demangled names (3.19 demangles Rust's legacy and v0 symbols by
// default, and its legacy demangling already drops the `::h<16 hex>` hash). A hash still present
// (older Valgrind, other demanglers) is removed: it differs between two builds of the same code,
// and base and head are matched by name. Names are opaque strings: never paths, never markup.
import { InputError } from "../../errors.ts";
import type {
  CallArc,
  FunctionCost,
  InstructionProfile,
} from "../../schemas/instruction-profile.ts";
import { parseCostLine, parsePositionKinds, parseSpec, type SpecKey } from "./callgrind-lines.ts";

/** Files larger than this many lines are not a benchmark's profile (the caller caps bytes). */
const MAX_LINES = 4_000_000;

const LEGACY_HASH = /::h[0-9a-f]{16}$/u;

/** The name used for display and for matching base and head: without a legacy hash. */
export function displayName(name: string): string {
  return name.replace(LEGACY_HASH, "");
}

/** A function's identity within and across profiles: object base name and name. */
export function functionKey(object: string, name: string): string {
  return `${object}\u0000${name}`;
}

function baseName(object: string): string {
  return object.slice(object.lastIndexOf("/") + 1);
}

interface Building {
  name: string;
  object: string;
  file: string;
  self: number;
  outgoing: number;
  calls: number;
  /** Whether its own fn= was read (else it is only known as a callee, and `file` is a guess). */
  defined: boolean;
}

/** Parser state: the names in effect and the call being read. */
interface State {
  object: string;
  file: string;
  fn: Building | undefined;
  callObject: string | undefined;
  callFile: string | undefined;
  callee: string | undefined;
  pendingCalls: number | undefined;
  /** The line of the pending calls=, for the message when its cost line is missing. */
  callsLine: number;
}

/** No call being read. */
const NO_CALL = {
  callObject: undefined,
  callFile: undefined,
  callee: undefined,
  pendingCalls: undefined,
} as const;

/** Parses a whole Callgrind output file. Throws InputError, with the line number, when malformed. */
export function parseCallgrind(text: string, source: string): InstructionProfile {
  const fail: (line: number, problem: string) => never = (line, problem) => {
    throw new InputError(`line ${line}: ${problem}`, { source });
  };
  const names = new Map<SpecKey, Map<string, string>>();
  const functions = new Map<string, Building>();
  const arcs = new Map<string, { -readonly [K in keyof CallArc]: CallArc[K] }>();
  const s: State = {
    object: "",
    file: "",
    fn: undefined,
    callObject: undefined,
    callFile: undefined,
    callee: undefined,
    pendingCalls: undefined,
    callsLine: 0,
  };
  let events: { readonly ir: number; readonly count: number } | undefined;
  let positions = 1;
  let sawFirstCost = false;
  let command: string | undefined;
  let totals: number | undefined;
  let summary: number | undefined;

  const functionAt = (object: string, name: string, file: string): Building => {
    const key = functionKey(object, name);
    let f = functions.get(key);
    if (f === undefined) {
      f = { name, object, file, self: 0, outgoing: 0, calls: 0, defined: false };
      functions.set(key, f);
    }
    return f;
  };

  const lines = text.split("\n");
  if (lines.length > MAX_LINES) fail(MAX_LINES + 1, `more than ${MAX_LINES} lines`);
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const raw = lines[i] as string;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "" || line.startsWith("#")) continue;
    const header = /^([a-z]+):\s?(.*)$/u.exec(line);
    if (header !== null) {
      const [, key, value = ""] = header;
      if (s.pendingCalls !== undefined) fail(n, "a calls= line must be followed by its cost line");
      if (key === "version" && events !== undefined) {
        // A new part (several processes' files joined, or --combine-dumps): its names, events
        // and positions start afresh; its costs add to the same functions.
        names.clear();
        events = undefined;
        positions = 1;
        sawFirstCost = false;
        Object.assign(s, { object: "", file: "", fn: undefined }, NO_CALL);
      } else if (key === "events") {
        if (sawFirstCost) fail(n, '"events:" after the first cost line');
        events = parseEvents(value, n, fail);
      } else if (key === "positions") {
        if (sawFirstCost) fail(n, '"positions:" after the first cost line');
        positions = parsePositionKinds(value, n, fail);
      } else if (key === "cmd") command ??= value.trim();
      else if (key === "totals" || key === "summary") {
        if (events === undefined) fail(n, `"${key}:" before "events:"`);
        const ir = parseCostLine(`${value}`, 0, events.count, events.ir, n, fail);
        if (key === "totals") totals = (totals ?? 0) + ir;
        else summary = (summary ?? 0) + ir;
      }
      // Other header lines (version, creator, pid, part, desc, thread, event) describe the run.
      continue;
    }
    const spec = parseSpec(line, n, names, fail);
    if (spec !== undefined) {
      if (s.pendingCalls !== undefined) fail(n, "a calls= line must be followed by its cost line");
      switch (spec.key) {
        case "ob":
          s.object = baseName(spec.name);
          break;
        case "fl":
          s.file = spec.name;
          break;
        case "fi":
        case "fe":
          // Inlined code: its costs stay the current function's (the file is the inlined one's).
          if (s.fn === undefined) fail(n, `${spec.key}= before the first fn=`);
          break;
        case "fn":
          s.fn = functionAt(s.object, displayName(spec.name), s.file);
          if (!s.fn.defined) s.fn.file = s.file; // its own fl=, not a caller's guess
          s.fn.defined = true;
          break;
        case "cob":
          s.callObject = baseName(spec.name);
          break;
        case "cfi":
        case "cfl":
          s.callFile = spec.name;
          break;
        case "cfn":
          s.callee = displayName(spec.name);
          break;
        case "calls":
          if (s.callee === undefined) fail(n, "calls= without a cfn= before it");
          if (s.fn === undefined) fail(n, "calls= before the first fn=");
          s.pendingCalls = spec.count;
          s.callsLine = n;
          break;
        case "jump":
        case "jcnd":
        case "jfi":
        case "jfn":
          break; // jumps (--collect-jumps=yes) are not costs
      }
      continue;
    }
    // A cost line.
    if (events === undefined) fail(n, 'a cost line before "events:"');
    if (s.fn === undefined) fail(n, "a cost line before the first fn=");
    sawFirstCost = true;
    const ir = parseCostLine(line, positions, events.count, events.ir, n, fail);
    const fn = s.fn;
    if (s.pendingCalls === undefined) {
      fn.self += ir;
      continue;
    }
    // The call's cost: inclusive of the callee. The callee's object, when not given, is the
    // caller's; its file (display only, replaced by its own fl= when its fn= comes) the caller's.
    const callee = functionAt(s.callObject ?? s.object, s.callee as string, s.callFile ?? s.file);
    const callerKey = functionKey(fn.object, fn.name);
    const calleeKey = functionKey(callee.object, callee.name);
    callee.calls += s.pendingCalls;
    if (calleeKey !== callerKey) fn.outgoing += ir;
    const arcKey = `${callerKey}\u0001${calleeKey}`;
    const arc = arcs.get(arcKey) ?? {
      caller: callerKey,
      callee: calleeKey,
      calls: 0,
      inclusive: 0,
    };
    arc.calls += s.pendingCalls;
    arc.inclusive += ir;
    arcs.set(arcKey, arc);
    s.pendingCalls = undefined;
    s.callee = undefined;
    s.callObject = undefined;
    s.callFile = undefined;
  }
  if (s.pendingCalls !== undefined) fail(s.callsLine, "the file ends after this calls= line");
  if (events === undefined) fail(1, 'not a Callgrind output file: no "events:" line');

  let selfSum = 0;
  const out = new Map<string, FunctionCost>();
  for (const [key, f] of functions) {
    selfSum += f.self;
    out.set(key, {
      name: f.name,
      object: f.object,
      file: f.file,
      self: f.self,
      inclusive: inclusiveCost(f.self, f.outgoing),
      calls: f.calls,
    });
  }
  return {
    command,
    total: totals ?? summary ?? selfSum,
    functions: out,
    arcs: [...arcs.values()],
  };
}

/**
 * Inclusive cost = self + the inclusive costs of the calls to OTHER functions. A function's self
 * cost sums all its activations, so a direct recursive call (f → f) is left out: its cost is
 * f's own self cost and f's calls again, counted already. Mutual recursion (f → g → f) is not
 * detected: the inner f's cost is in f's self and in f → g, so it counts twice — as it does in
 * Callgrind's own inclusive figures (callgrind_annotate --inclusive=yes, KCachegrind).
 */
function inclusiveCost(self: number, outgoing: number): number {
  return self + outgoing;
}

function parseEvents(
  value: string,
  n: number,
  fail: (line: number, problem: string) => never,
): { ir: number; count: number } {
  const names = value.split(/\s+/u).filter((e) => e !== "");
  if (names.length === 0 || names.length > 64) fail(n, `"events:" names ${names.length} events`);
  for (const e of names)
    if (!/^[A-Za-z][A-Za-z0-9_]{0,46}$/u.test(e))
      fail(n, `invalid event name ${JSON.stringify(e.slice(0, 64))}`);
  const ir = names.indexOf("Ir");
  if (ir < 0) fail(n, `no Ir event (events: ${names.join(" ")}); benchgate reads instructions`);
  return { ir, count: names.length };
}
