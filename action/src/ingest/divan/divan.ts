// divan's console output of a bench run (`cargo bench --bench B`, its stdout; divan 0.1.21,
// docs/formats.md, "divan") → one benchmark per leaf of its tree, keyed by the leaf's full path
// (`shapes/checksum/fletcher16/64`: the tree's root, its groups, the bench, then its type,
// argument or thread count). Divan writes no file and keeps no samples, so each benchmark
// carries the four statistics divan prints (median, mean, fastest as min, slowest as max) and
// its sample and iteration counts; compare pairs the per-run medians across rounds. Every line
// is checked: a line of any other shape is an error naming its number. Pure.
import { InputError } from "../../errors.ts";
import type { Benchmark } from "../../schemas/summary.gen.ts";
import { nameProblem } from "../benchmark-name.ts";
import { type FormatGuess, lookAlike } from "../format-kind.ts";
import { IdRegistry } from "../json-guards.ts";
import { parseUntrustedJson } from "../read-json.ts";
import { classify, type Row } from "./divan-rows.ts";

/** A line longer than this is not divan's (its names and six columns fit in a few hundred). */
const MAX_LINE_LENGTH = 4096;
/** The summary schema's limit on benchmarks per file. */
const MAX_BENCHMARKS = 20_000;
/** Ids are capped by the summary schema. */
const MAX_ID_LENGTH = 1024;

interface DivanOptions {
  /** Suite of the benchmarks; default "divan". */
  readonly suite: string | undefined;
  readonly guess: FormatGuess;
}

type Leaf = Extract<Row, { shape: "leaf" }>;

function quote(line: string): string {
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 120)}…` : line);
}

function failAt(source: string, number: number, line: string, problem: string): never {
  throw new InputError(`line ${number}: ${problem}: ${quote(line)}`, { source });
}

function toBenchmark(
  leaf: Leaf,
  id: string,
  suite: string,
  rates: ReadonlyMap<string, string>,
): Benchmark {
  const { fastest, slowest, median, mean } = leaf.times;
  const metadata: NonNullable<Benchmark["metadata"]> = {
    samples: leaf.samples,
    iters: leaf.iters,
  };
  // Divan prints rates, not the count per iteration: kept as its text, never recomputed.
  for (const [kind, rate] of rates) metadata[`throughput_${kind}`] = rate;
  return {
    id,
    suite,
    source: "divan",
    unit: "ns",
    direction: "smaller_is_better",
    sample_kind: "per_iteration",
    estimates: { median, mean, min: fastest, max: slowest },
    metadata,
  };
}

/** A JSON file handed to `ingest divan`: say so, and what it looks like. */
function refuseJson(text: string, source: string, guess: FormatGuess): void {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return;
  let hint: string;
  try {
    hint = lookAlike(guess, parseUntrustedJson(text, source, text.length));
  } catch {
    // Not even JSON: the line-by-line check below names the first line.
    return;
  }
  throw new InputError(`not divan's console output: this is JSON${hint}`, { source });
}

/** Parses divan's stdout of one bench run into its benchmarks. */
export function parseDivan(text: string, source: string, options: DivanOptions): Benchmark[] {
  const suite = options.suite ?? "divan";
  refuseJson(text, source, options.guess);
  const lines = text.split("\n");
  const ids = new IdRegistry();
  const benchmarks: Benchmark[] = [];
  /** The names of the open parents, the root first; empty outside a tree. */
  let path: string[] = [];
  /** The leaf above a continuation row, with the rates read under it so far. */
  let last: { leaf: Leaf; id: string; rates: Map<string, string> } | undefined;
  let inAlloc = false;
  const finishLeaf = (): void => {
    if (last === undefined) return;
    benchmarks.push(toBenchmark(last.leaf, last.id, suite, last.rates));
    last = undefined;
  };
  for (const [index, raw] of lines.entries()) {
    const number = index + 1;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.length > MAX_LINE_LENGTH)
      failAt(source, number, line, `longer than ${MAX_LINE_LENGTH} characters`);
    const row = classify(line);
    switch (row.shape) {
      case "blank":
        finishLeaf();
        path = [];
        continue;
      case "unknown":
        failAt(source, number, line, row.problem);
        break;
      case "bare-root":
        failAt(
          source,
          number,
          line,
          "not divan's table: a run's tree starts with its name and the headings fastest … iters (divan --list and --test print the tree without them)",
        );
        break;
      case "root":
        finishLeaf();
        path = [row.name];
        continue;
      case "throughput":
        if (last === undefined || inAlloc)
          failAt(source, number, line, "a throughput row that follows no benchmark's times");
        if (last.rates.has(row.kind))
          failAt(source, number, line, `a second ${row.kind} throughput row for one benchmark`);
        last.rates.set(row.kind, row.median);
        continue;
      case "alloc":
        if (last === undefined)
          failAt(source, number, line, "an allocation row that follows no benchmark's times");
        inAlloc = true;
        continue;
      default:
        break;
    }
    // A branch line: a parent, a leaf or an ignored bench, `depth` levels under the root.
    finishLeaf();
    inAlloc = false;
    if (path.length === 0)
      failAt(
        source,
        number,
        line,
        "a tree line before any tree's first line (its name and headings)",
      );
    if (row.depth > path.length)
      failAt(
        source,
        number,
        line,
        `nested ${row.depth - path.length} levels deeper than its parent`,
      );
    path = path.slice(0, row.depth);
    const problem = nameProblem(row.name);
    if (problem !== undefined) failAt(source, number, line, `the name is not usable: ${problem}`);
    if (row.shape === "parent") {
      path.push(row.name);
      continue;
    }
    if (row.shape === "ignored" || row.shape === "not-run") continue;
    const id = [...path, row.name].join("/");
    if (id.length > MAX_ID_LENGTH)
      failAt(source, number, line, `the full path is longer than ${MAX_ID_LENGTH} characters`);
    const { fastest, slowest, median, mean } = row.times;
    // Divan rounds to four significant figures, so equal is possible and order is not.
    if (!(fastest <= median && median <= slowest && fastest <= mean && mean <= slowest))
      failAt(source, number, line, "fastest, median, mean and slowest are out of order");
    ids.add(id, { source, path: `line ${number}` }, `line ${number}`);
    if (benchmarks.length >= MAX_BENCHMARKS)
      failAt(source, number, line, `more than ${MAX_BENCHMARKS} benchmarks`);
    last = { leaf: row, id, rates: new Map() };
  }
  finishLeaf();
  if (benchmarks.length === 0)
    throw new InputError(
      text.trim() === ""
        ? "divan printed nothing: no benchmark ran (does the filter match any?)"
        : "divan's output holds no benchmark that ran",
      { source },
    );
  return benchmarks;
}
