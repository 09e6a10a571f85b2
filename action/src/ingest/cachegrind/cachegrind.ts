// A Cachegrind output file (`valgrind --tool=cachegrind --cachegrind-out-file=FILE CMD`) → the
// benchmarks of its one program run (docs/formats.md, "Cachegrind"). The format is text: header
// lines `key: value` (`desc:`, `cmd:`, `events: Ir …`), then per file and function lines of
// counts, and `summary:` with one total per event. Callgrind's format shares the header idea
// (`events:`, and `summary:` and/or `totals:`), so its files are read the same way. Only the
// header lines used and the totals are checked; the per-function lines are not read. Pure.
import { InputError } from "../../errors.ts";
import type { Benchmark } from "../../schemas/summary.gen.ts";
import { nameProblem } from "../benchmark-name.ts";
import { type FormatGuess, type FormatRead, lookAlike } from "../format-kind.ts";
import { baseName, parseUntrustedJson } from "../read-json.ts";

/** What an event counts, as a summary unit; events not listed are not read. */
const EVENT_UNITS: ReadonlyMap<string, string> = new Map([
  ["Ir", "instructions"],
  ["I1mr", "misses"],
  ["ILmr", "misses"],
  ["Dr", "reads"],
  ["D1mr", "misses"],
  ["DLmr", "misses"],
  ["Dw", "writes"],
  ["D1mw", "misses"],
  ["DLmw", "misses"],
  ["Bc", "branches"],
  ["Bcm", "mispredictions"],
  ["Bi", "branches"],
  ["Bim", "mispredictions"],
]);

const INSTRUCTIONS = "Ir";
/** Valgrind's tools have about twenty events; more is not their file. */
const MAX_EVENTS = 64;

export interface CachegrindOptions {
  /** Suite of the benchmarks; default "cachegrind". */
  readonly suite: string | undefined;
  /** The benchmark's id; default: the base name of the program on the `cmd:` line. */
  readonly name: string | undefined;
  readonly guess: FormatGuess;
}

/** One header line that was read, with its 1-based number. */
interface HeaderLine {
  readonly line: number;
  readonly value: string;
}

/** The header keys read; each may appear once. */
const KEYS = ["events", "summary", "totals", "cmd", "creator"] as const;
type Key = (typeof KEYS)[number];

function failAt(source: string, line: number | undefined, problem: string): never {
  throw new InputError(line === undefined ? problem : `line ${line}: ${problem}`, { source });
}

/** The header lines read, by key. */
function headerLines(text: string, source: string): Map<Key, HeaderLine> {
  const found = new Map<Key, HeaderLine>();
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    const end = text.indexOf("\n", start);
    const raw = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length + 1 : end + 1;
    const match = /^([a-z]+):(.*)$/.exec(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    const key = KEYS.find((k) => k === match?.[1]);
    if (match === null || key === undefined) continue;
    const first = found.get(key);
    if (first !== undefined)
      failAt(source, line, `"${key}:" given twice (also on line ${first.line}); one run per file`);
    found.set(key, { line, value: (match[2] ?? "").trim() });
  }
  return found;
}

function notCachegrind(text: string, source: string, guess: FormatGuess): never {
  const start = text.trimStart()[0];
  if (start === "{" || start === "[") {
    let hint = "";
    try {
      hint = lookAlike(guess, parseUntrustedJson(text, source, text.length));
    } catch {
      // Not even JSON: the plain message says enough.
    }
    failAt(source, undefined, `not a Cachegrind output file: this is JSON${hint}`);
  }
  failAt(
    source,
    undefined,
    'not a Cachegrind output file: no "events:" line (expected the file valgrind --tool=cachegrind --cachegrind-out-file=FILE writes)',
  );
}

function eventNames(events: HeaderLine, source: string): string[] {
  const names = events.value.split(/\s+/).filter((n) => n !== "");
  if (names.length === 0) failAt(source, events.line, '"events:" names no event');
  if (names.length > MAX_EVENTS)
    failAt(source, events.line, `${names.length} events, limit ${MAX_EVENTS}`);
  const seen = new Set<string>();
  for (const name of names) {
    if (!/^[A-Za-z][A-Za-z0-9_]{0,46}$/.test(name))
      failAt(source, events.line, `invalid event name ${JSON.stringify(name.slice(0, 64))}`);
    if (seen.has(name)) failAt(source, events.line, `event ${name} is named twice`);
    seen.add(name);
  }
  if (!seen.has(INSTRUCTIONS))
    failAt(
      source,
      events.line,
      `no ${INSTRUCTIONS} event (events: ${names.join(" ")}); benchgate reads the instruction count`,
    );
  return names;
}

/** One count per event, each an exact non-negative integer. */
function counts(totals: HeaderLine, key: Key, events: readonly string[], source: string): number[] {
  const tokens = totals.value.split(/\s+/).filter((t) => t !== "");
  if (tokens.length !== events.length)
    failAt(
      source,
      totals.line,
      `"${key}:" has ${tokens.length} counts for ${events.length} events (${events.join(" ")})`,
    );
  return tokens.map((token) => {
    if (!/^[0-9]+$/.test(token))
      failAt(
        source,
        totals.line,
        `"${key}:" count ${JSON.stringify(token.slice(0, 32))} is not a non-negative integer`,
      );
    const n = Number(token);
    if (n > Number.MAX_SAFE_INTEGER)
      failAt(
        source,
        totals.line,
        `count ${token.slice(0, 32)} is larger than ${Number.MAX_SAFE_INTEGER}: benchgate would lose its precision`,
      );
    return n;
  });
}

/** The totals: `summary:` (Cachegrind, and Callgrind's header) or `totals:` (Callgrind's end). */
function totalsOf(
  lines: Map<Key, HeaderLine>,
  events: readonly string[],
  source: string,
): number[] {
  const summary = lines.get("summary");
  const totals = lines.get("totals");
  if (summary === undefined) {
    if (totals === undefined)
      failAt(
        source,
        undefined,
        'no "summary:" line (Cachegrind writes it last: is the file complete?)',
      );
    return counts(totals, "totals", events, source);
  }
  const fromSummary = counts(summary, "summary", events, source);
  if (totals !== undefined) {
    const fromTotals = counts(totals, "totals", events, source);
    if (fromSummary.some((n, i) => n !== fromTotals[i]))
      failAt(source, totals.line, `"totals:" differs from "summary:" (line ${summary.line})`);
  }
  return fromSummary;
}

/** The benchmark's id: --name, else the base name of the program the `cmd:` line ran. */
function benchmarkId(
  lines: Map<Key, HeaderLine>,
  name: string | undefined,
  source: string,
): string {
  if (name !== undefined) return name;
  const cmd = lines.get("cmd");
  const program = cmd?.value.split(/\s+/)[0] ?? "";
  if (cmd === undefined || program === "")
    failAt(
      source,
      cmd?.line,
      'no program on a "cmd:" line to name the benchmark; give --name NAME',
    );
  const id = baseName(program);
  const problem = nameProblem(id);
  if (problem !== undefined)
    failAt(
      source,
      cmd.line,
      `the program's name ${JSON.stringify(id.slice(0, 64))} is not a usable benchmark id (${problem}); give --name NAME`,
    );
  return id;
}

/** Parses one Cachegrind (or Callgrind) output file into its benchmarks. */
export function parseCachegrind(
  text: string,
  source: string,
  options: CachegrindOptions,
): FormatRead {
  const lines = headerLines(text, source);
  const events = lines.get("events");
  if (events === undefined) notCachegrind(text, source, options.guess);
  const names = eventNames(events, source);
  const values = totalsOf(lines, names, source);
  const id = benchmarkId(lines, options.name, source);
  const suite = options.suite ?? "cachegrind";
  const creator = lines.get("creator")?.value;
  const tool = creator?.startsWith("callgrind") === true ? "Callgrind" : "Cachegrind";

  const benchmarks: Benchmark[] = [];
  names.forEach((event, i) => {
    const unit = EVENT_UNITS.get(event);
    const value = values[i] as number;
    if (unit === undefined) return;
    const primary = event === INSTRUCTIONS;
    const benchmark: Benchmark = {
      id: primary ? id : `${id} [${event.toLowerCase()}]`,
      suite,
      source: "cachegrind",
      unit,
      metric: primary ? "instructions" : event.toLowerCase(),
      deterministic: true,
      direction: "smaller_is_better",
      sample_kind: "per_process",
      samples: [value],
      estimates: { median: value },
      metadata: { tool },
    };
    if (!primary) benchmark.secondary = true;
    if (primary) benchmarks.unshift(benchmark);
    else benchmarks.push(benchmark);
  });
  // Callgrind names itself ("callgrind-3.19.0"); Cachegrind's files carry no version.
  return creator !== undefined && /^[A-Za-z0-9._+-]{1,64}$/.test(creator)
    ? { benchmarks, toolVersion: creator }
    : { benchmarks };
}
