// Unit normalization. Direction is a fact about the metric, never about the tool (docs/formats.md):
// a time, a size or a count of instructions gets better when it shrinks; a rate gets better
// when it grows. Every time becomes ns so base and head compare whatever tool produced them.
import type { Benchmark } from "../schemas/summary.gen.ts";

export type Direction = Benchmark["direction"];
type UnitKind = "time" | "rate" | "size" | "count" | "unknown";

export interface NormalizedUnit {
  /** The unit values are reported in after multiplying by `factor` (e.g. "ns", "B/s"). */
  readonly unit: string;
  /** Multiply a value in the raw unit by this to get a value in `unit`. */
  readonly factor: number;
  readonly direction: Direction;
  /** "unknown" means the raw unit was kept as-is and smaller_is_better assumed: note it. */
  readonly kind: UnitKind;
}

const NS_PER: ReadonlyMap<string, number> = new Map([
  ["ps", 1e-3],
  ["ns", 1],
  ["nsec", 1],
  ["nanos", 1],
  ["nanosecond", 1],
  ["nanoseconds", 1],
  ["us", 1e3],
  ["\u00b5s", 1e3], // MICRO SIGN
  ["\u03bcs", 1e3], // GREEK SMALL LETTER MU
  ["usec", 1e3],
  ["micros", 1e3],
  ["microsecond", 1e3],
  ["microseconds", 1e3],
  ["ms", 1e6],
  ["msec", 1e6],
  ["millis", 1e6],
  ["millisecond", 1e6],
  ["milliseconds", 1e6],
  ["s", 1e9],
  ["sec", 1e9],
  ["secs", 1e9],
  ["second", 1e9],
  ["seconds", 1e9],
  ["min", 60e9],
  ["mins", 60e9],
  ["minute", 60e9],
  ["minutes", 60e9],
  ["h", 3600e9],
  ["hour", 3600e9],
  ["hours", 3600e9],
]);

const SI: ReadonlyMap<string, number> = new Map([
  ["", 1],
  ["k", 1e3],
  ["K", 1e3],
  ["M", 1e6],
  ["G", 1e9],
  ["T", 1e12],
]);

/** The binary multipliers (IEC): "Mi" is 2^20. */
export const BINARY_PREFIXES: ReadonlyMap<string, number> = new Map([
  ["Ki", 2 ** 10],
  ["Mi", 2 ** 20],
  ["Gi", 2 ** 30],
  ["Ti", 2 ** 40],
]);

/** Countable things per time unit: canonical name for each spelling. */
const RATE_NOUNS: ReadonlyMap<string, string> = new Map([
  ["op", "ops"],
  ["ops", "ops"],
  ["operation", "ops"],
  ["operations", "ops"],
  ["req", "req"],
  ["reqs", "req"],
  ["request", "req"],
  ["requests", "req"],
  ["elem", "elem"],
  ["elems", "elem"],
  ["element", "elem"],
  ["elements", "elem"],
  ["iter", "iter"],
  ["iters", "iter"],
  ["iteration", "iter"],
  ["iterations", "iter"],
  ["msg", "msg"],
  ["msgs", "msg"],
  ["message", "msg"],
  ["messages", "msg"],
  ["item", "items"],
  ["items", "items"],
  ["event", "events"],
  ["events", "events"],
  ["tx", "tx"],
  ["txs", "tx"],
  ["transaction", "tx"],
  ["transactions", "tx"],
  ["query", "queries"],
  ["queries", "queries"],
  ["call", "calls"],
  ["calls", "calls"],
  ["row", "rows"],
  ["rows", "rows"],
  ["record", "records"],
  ["records", "records"],
  ["line", "lines"],
  ["lines", "lines"],
  ["frame", "frames"],
  ["frames", "frames"],
  ["packet", "packets"],
  ["packets", "packets"],
]);

/** Words that already mean "per second". */
const RATE_WORDS: ReadonlySet<string> = new Set([
  "hz",
  "khz",
  "mhz",
  "ghz",
  "iops",
  "qps",
  "rps",
  "tps",
  "fps",
]);

/** Counts whose smaller value is better (instructions, cycles, allocations, …). */
const COUNT_WORDS: ReadonlyMap<string, string> = new Map([
  ["instructions", "instructions"],
  ["instructions:u", "instructions:u"],
  ["instr", "instructions"],
  ["instrs", "instructions"],
  ["inst", "instructions"],
  ["cycles", "cycles"],
  ["cycles:u", "cycles:u"],
  ["cycle", "cycles"],
  ["allocations", "allocs"],
  ["allocs", "allocs"],
  ["alloc", "allocs"],
  ["branches", "branches"],
  ["branch-misses", "branch-misses"],
  ["cache-misses", "cache-misses"],
  ["page-faults", "page-faults"],
  ["faults", "page-faults"],
  ["syscalls", "syscalls"],
  ["count", "count"],
]);

interface Quantity {
  readonly unit: string;
  readonly factor: number;
  readonly kind: "time" | "size" | "count";
}

function timeOf(text: string): Quantity | undefined {
  const ns = NS_PER.get(text) ?? NS_PER.get(text.toLowerCase());
  return ns === undefined ? undefined : { unit: "ns", factor: ns, kind: "time" };
}

/**
 * Bytes and bits. SI convention: an upper-case "B" is a byte, a lower-case "b" after a prefix
 * ("Mb") is a bit; "byte(s)"/"bit(s)" are accepted in any case. A bare "b" is too ambiguous.
 */
function sizeOf(text: string): Quantity | undefined {
  const words = /^(|k|K|M|G|T|Ki|Mi|Gi|Ti)(bytes?|bits?)$/i.exec(text);
  const symbol = /^(|k|K|M|G|T|Ki|Mi|Gi|Ti)(B|b)$/.exec(text);
  const match = words ?? symbol;
  if (match === null) return undefined;
  const prefix = match[1] ?? "";
  const base = match[2] ?? "";
  if (base === "b" && prefix === "") return undefined;
  const isBit = base === "b" || base.toLowerCase().startsWith("bit");
  const multiplier = SI.get(prefix) ?? BINARY_PREFIXES.get(prefix) ?? SI.get(prefix.toUpperCase());
  if (multiplier === undefined) return undefined;
  return { unit: isBit ? "bit" : "B", factor: multiplier, kind: "size" };
}

function countOf(text: string): Quantity | undefined {
  const word = COUNT_WORDS.get(text.toLowerCase());
  return word === undefined ? undefined : { unit: word, factor: 1, kind: "count" };
}

/** The numerator of a rate: bytes/bits, or a countable noun with an optional SI prefix. */
function rateNumerator(text: string): { unit: string; factor: number } | undefined {
  const size = sizeOf(text);
  if (size !== undefined) return { unit: size.unit, factor: size.factor };
  const plain = RATE_NOUNS.get(text.toLowerCase());
  if (plain !== undefined) return { unit: plain, factor: 1 };
  const prefixed = /^(k|K|M|G|T)(.+)$/.exec(text);
  if (prefixed !== null) {
    const noun = RATE_NOUNS.get((prefixed[2] ?? "").toLowerCase());
    const multiplier = SI.get(prefixed[1] ?? "");
    if (noun !== undefined && multiplier !== undefined) return { unit: noun, factor: multiplier };
  }
  return undefined;
}

function rate(numerator: string, perNs: number): NormalizedUnit {
  // perNs = length of the denominator in ns; values become "per second".
  const known = rateNumerator(numerator);
  const perSecond = 1e9 / perNs;
  if (known === undefined) {
    return {
      unit: `${numerator}/s`,
      factor: perSecond,
      direction: "bigger_is_better",
      kind: "rate",
    };
  }
  return {
    unit: `${known.unit}/s`,
    factor: known.factor * perSecond,
    direction: "bigger_is_better",
    kind: "rate",
  };
}

const SMALLER: Direction = "smaller_is_better";

/**
 * Normalizes a unit string: every time to ns, rates to "<thing>/s", sizes to B or bit.
 * An unknown unit is returned unchanged (factor 1, smaller_is_better, kind "unknown") so the
 * caller can record that the direction was assumed.
 */
export function normalizeUnit(raw: string): NormalizedUnit {
  const text = raw.trim().replace(/\s+/g, " ");
  const direct = timeOf(text) ?? sizeOf(text) ?? countOf(text);
  if (direct !== undefined) return { ...direct, direction: SMALLER };
  if (RATE_WORDS.has(text.toLowerCase())) {
    return { unit: text, factor: 1, direction: "bigger_is_better", kind: "rate" };
  }

  // "<x>/<y>" or "<x> per <y>" (also "<x>_per_<y>" from key suffixes).
  const split =
    /^(.+?)\s*\/\s*([^/]+)$/.exec(text) ??
    /^(.*?)[\s_]*\bper[\s_]+(.+)$/i.exec(text.replaceAll("_", " "));
  if (split !== null) {
    const numerator = (split[1] ?? "").trim();
    const denominator = (split[2] ?? "").trim();
    const perTime = timeOf(denominator);
    if (perTime !== undefined) {
      // A time per time (e.g. "s/s") is a ratio, not a rate; "per second" alone is "1/s".
      if (timeOf(numerator) === undefined)
        return rate(numerator === "" ? "1" : numerator, perTime.factor);
    } else if (numerator !== "") {
      // "ns/iter", "ms/op": still a time. "B/op", "allocs/op": still a size or a count.
      const quantity = timeOf(numerator) ?? sizeOf(numerator) ?? countOf(numerator);
      if (quantity !== undefined) {
        const unit = quantity.kind === "time" ? "ns" : `${quantity.unit}/${denominator}`;
        return { unit, factor: quantity.factor, direction: SMALLER, kind: quantity.kind };
      }
    }
  }
  return { unit: text, factor: 1, direction: SMALLER, kind: "unknown" };
}

/** The metadata note recorded when a unit is not recognized. */
export function unknownUnitNote(raw: string): string {
  return `unknown unit ${JSON.stringify(raw.slice(0, 64))}: direction assumed smaller_is_better`;
}
