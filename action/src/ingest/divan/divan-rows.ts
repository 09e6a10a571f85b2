// One line of divan's console tree (divan 0.1.21; docs/formats.md, "divan"), classified by its
// shape. Divan prints a tree drawn with box characters and, right of the names, six columns
// separated by " │ ": fastest, slowest, median, mean (times), samples and iters (counts). A
// top-level line names the tree and carries the column headings; a branch line (`├─ ` or `╰─ `
// after the tree's prefix) is a group or a benchmark; a line without a branch continues the
// benchmark above it (a throughput rate, or the allocation profiler's rows). Pure.

/** The six columns of divan's table, in its order. */
const COLUMNS = ["fastest", "slowest", "median", "mean", "samples", "iters"] as const;

/** The four time columns, in ns. */
interface Times {
  readonly fastest: number;
  readonly slowest: number;
  readonly median: number;
  readonly mean: number;
}

export type Row =
  | { readonly shape: "blank" }
  /** A tree's first line: its name and the column headings. */
  | { readonly shape: "root"; readonly name: string }
  /** A tree printed without columns: `--list`, `--test`, or a run's first line cut off. */
  | { readonly shape: "bare-root"; readonly name: string }
  /** A group, a bench with arguments or types, or a bench with several thread counts. */
  | { readonly shape: "parent"; readonly depth: number; readonly name: string }
  | {
      readonly shape: "leaf";
      readonly depth: number;
      readonly name: string;
      readonly times: Times;
      readonly samples: number;
      readonly iters: number;
    }
  | { readonly shape: "ignored"; readonly depth: number; readonly name: string }
  /** A bench that registered no function for this leaf (divan warns on stderr): nothing ran. */
  | { readonly shape: "not-run"; readonly depth: number; readonly name: string }
  /** A rate under a leaf: the counter's kind (bytes, items, chars, cycles) and its four values. */
  | { readonly shape: "throughput"; readonly kind: string; readonly median: string }
  /** An allocation profiler heading (`alloc:`) or one of its count or size rows. */
  | { readonly shape: "alloc" }
  | { readonly shape: "unknown"; readonly problem: string };

/**
 * divan's time suffixes (FineDuration's TimeScale): the power of ten to ns, so that `2.087 ms`
 * becomes exactly 2087000 (a decimal exponent, not a float product); minutes, hours and days
 * are counted in seconds first.
 */
const NS_EXPONENT: ReadonlyMap<string, readonly [exponent: number, times: number]> = new Map([
  ["ps", [-3, 1]],
  ["ns", [0, 1]],
  ["µs", [3, 1]],
  ["ms", [6, 1]],
  ["s", [9, 1]],
  ["m", [9, 60]],
  ["h", [9, 3600]],
  ["d", [9, 86_400]],
]);

const NUMBER = String.raw`\d+(?:\.\d+)?`;
const TIME = new RegExp(`^(${NUMBER}) (\\S+)$`);
const COUNT = /^\d{1,15}$/;
/** A rate: SI or binary prefix, then B/s, item/s, char/s or Hz (divan's ScaleFormat). */
const RATE = new RegExp(`^(?:${NUMBER}|inf) (?:[KMGTP]i?)?(B/s|item/s|char/s|Hz)$`);
const RATE_KINDS: ReadonlyMap<string, string> = new Map([
  ["B/s", "bytes"],
  ["item/s", "items"],
  ["char/s", "chars"],
  ["Hz", "cycles"],
]);
const ALLOC_HEADING = /^(?:max alloc|alloc|dealloc|grow|shrink):$/;
/** An allocation count (`1`) or size (`32.76 KB`, `4 KiB`). */
const ALLOC_VALUE = new RegExp(`^${NUMBER}(?: (?:[KMGTP]i?)?B)?$`);
/** Each level of the tree's prefix is three characters wide. */
const PREFIX = /^((?:│ {2}| {3})*)([├╰]─ )?/;
/** A column separator; the last one loses its trailing space when iters is empty. */
const SEPARATOR = / │(?: |$)/;
const HEADINGS = new RegExp(`^(\\S.*?) {2,}${COLUMNS.map((c) => `${c} *`).join("│ ")}$`);

/** A time as divan prints it (`4.786 ns`, `1.05 s`) in ns, or undefined. */
export function parseTime(text: string): number | undefined {
  const match = TIME.exec(text);
  if (match === null) return undefined;
  const scale = NS_EXPONENT.get(match[2] as string);
  if (scale === undefined) return undefined;
  const [exponent, times] = scale;
  return Number(`${match[1] as string}e${exponent}`) * times;
}

/** The six columns of `rest` (what follows the names), or undefined when there are not six. */
function columns(rest: string): string[] | undefined {
  const parts = rest.split(SEPARATOR).map((p) => p.trim());
  return parts.length === COLUMNS.length ? parts : undefined;
}

/** The name and the first column of a branch line's first cell (`10              4.786 ns`). */
function splitName(cell: string): { name: string; first: string } {
  const match = /^(.+?) {2,}(\S+ \S+|\(ignored\))$/.exec(cell.trimEnd());
  return match === null
    ? { name: cell.trim(), first: "" }
    : { name: match[1] as string, first: match[2] as string };
}

function leafRow(depth: number, name: string, cells: readonly string[]): Row {
  const times: number[] = [];
  for (let i = 0; i < 4; i++) {
    const ns = parseTime(cells[i] as string);
    if (ns === undefined)
      return {
        shape: "unknown",
        problem: `${COLUMNS[i] as string} ${JSON.stringify(cells[i])} is not a time divan prints (a number, a space, ps, ns, µs, ms, s, m, h or d)`,
      };
    times.push(ns);
  }
  const [samples, iters] = [cells[4] as string, cells[5] as string];
  if (!COUNT.test(samples) || !COUNT.test(iters) || Number(samples) === 0 || Number(iters) === 0)
    return {
      shape: "unknown",
      problem: `samples ${JSON.stringify(samples)} and iters ${JSON.stringify(iters)} must be positive integers`,
    };
  const [fastest, slowest, median, mean] = times as [number, number, number, number];
  return {
    shape: "leaf",
    depth,
    name,
    times: { fastest, slowest, median, mean },
    samples: Number(samples),
    iters: Number(iters),
  };
}

/** A line without a branch: the counter or allocation rows under the leaf above. */
function continuationRow(cells: readonly string[]): Row {
  const stats = cells.slice(0, 4);
  const counts = cells.slice(4);
  if (counts.some((c) => c !== ""))
    return { shape: "unknown", problem: "a row under a benchmark with samples or iters" };
  const rate = stats.map((c) => RATE.exec(c));
  if (rate.every((m) => m !== null)) {
    const units = new Set(rate.map((m) => m?.[1]));
    const unit = rate[0]?.[1] as string;
    if (units.size === 1)
      return {
        shape: "throughput",
        kind: RATE_KINDS.get(unit) as string,
        median: stats[2] as string,
      };
  }
  if (ALLOC_HEADING.test(stats[0] as string) && stats.slice(1).every((c) => c === ""))
    return { shape: "alloc" };
  if (stats.every((c) => ALLOC_VALUE.test(c))) return { shape: "alloc" };
  return { shape: "unknown", problem: "not a row divan prints under a benchmark" };
}

/** Classifies one line (without its line break). */
export function classify(line: string): Row {
  if (line.trim() === "") return { shape: "blank" };
  if (!/^[ │├╰]/.test(line)) {
    const headed = HEADINGS.exec(line);
    if (headed !== null) return { shape: "root", name: headed[1] as string };
    return line.includes("│")
      ? { shape: "unknown", problem: "a tree's first line with other columns than divan's" }
      : { shape: "bare-root", name: line.trim() };
  }
  const prefix = PREFIX.exec(line) as RegExpExecArray;
  const levels = (prefix[1] as string).length / 3;
  const rest = line.slice(prefix[0].length);
  const cells = columns(rest);
  if (prefix[2] === undefined) {
    if (cells === undefined) return { shape: "unknown", problem: "not a line of divan's tree" };
    return continuationRow(cells);
  }
  const depth = levels + 1;
  if (cells === undefined) {
    // The name alone, padded to the columns: divan's empty leaf, for a bench whose function
    // returned without calling `bench` for this argument. A line with some columns is cut.
    if (!rest.includes("│") && rest.trim() !== "")
      return { shape: "not-run", depth, name: rest.trim() };
    return { shape: "unknown", problem: "a tree line without divan's six columns" };
  }
  const { name, first } = splitName(cells[0] as string);
  if (name === "") return { shape: "unknown", problem: "a tree line without a name" };
  const all = [first, ...cells.slice(1)];
  if (all.every((c) => c === "")) return { shape: "parent", depth, name };
  if (first === "(ignored)" && all.slice(1).every((c) => c === ""))
    return { shape: "ignored", depth, name };
  return leafRow(depth, name, all);
}
