// Progress inside one suite's run (one side and round): Criterion and hyperfine say which
// benchmark they are on, so a long suite is not minutes of silence. In a CI log (or any pipe):
// whole lines, at most one per `everyMs` (5 s), and only when a benchmark has started or
// finished since the last one, e.g.
// "round 2/5 · head · micro: 23/55 benchmarks, 1:41 elapsed, about 2:20 left (now parse/1000)".
// On an interactive terminal the same text is a status line updated in place as each benchmark
// starts or finishes (at most 4 times a second), cleared by the next whole line.
import type { Clock } from "../ports/clock.ts";
import { formatDuration } from "./progress.ts";

/** What one line of a tool's output says about the benchmarks: one started, or one done. */
type BenchmarkEvent =
  | { readonly kind: "started"; readonly id: string }
  | { readonly kind: "done" }
  | { readonly kind: "count"; readonly done: number; readonly id: string };

/**
 * Criterion prints "Benchmarking <id>: Warming up …", "… Collecting …", "… Analyzing" and then
 * one "time:   [lo mid hi]" line per benchmark (after the id, or alone under a long id);
 * hyperfine `--style basic` prints "Benchmark <n>: <name>" as each command starts.
 */
export function benchmarkEvent(line: string): BenchmarkEvent | undefined {
  const criterion = /^Benchmarking (.+?): (?:Warming up|Collecting|Analyzing|Complete)/.exec(line);
  if (criterion !== null) return { kind: "started", id: criterion[1] ?? "" };
  if (/(?:^|\s)time:\s+\[/.test(line)) return { kind: "done" };
  const hyperfine = /^Benchmark (\d{1,6}): (.+)$/.exec(line);
  if (hyperfine !== null)
    return { kind: "count", done: Number(hyperfine[1]) - 1, id: hyperfine[2] ?? "" };
  return undefined;
}

interface SuiteProgressOptions {
  /** "round 2/5 · head · micro". */
  readonly label: string;
  /** How many benchmarks this run should measure, when an earlier run of the suite says. */
  readonly expected: number | undefined;
  readonly clock: Clock;
  readonly write: (text: string) => void;
  /** A terminal's status line: given, it replaces the lines (and `everyMs`). */
  readonly status?: (text: string) => void;
  readonly everyMs?: number;
  /**
   * Count what the runner reports done (`unitDone`) instead of the tools' lines: schedule: pairs
   * runs one benchmark per process, and each hyperfine process numbers its command 1.
   */
  readonly countsUnits?: boolean;
  /** What is counted: "benchmarks" (default), or e.g. "pairs". */
  readonly noun?: string;
}

const EVERY_MS = 5000;
const STATUS_EVERY_MS = 250;
const ID_CHARS = 60;

export class SuiteProgress {
  readonly #options: SuiteProgressOptions;
  readonly #started: number;
  #last: number;
  #done = 0;
  #current: string | undefined;

  constructor(options: SuiteProgressOptions) {
    this.#options = options;
    this.#started = options.clock.now();
    this.#last = this.#started;
  }

  /** One line of the tool's output. */
  line(text: string): void {
    const event = benchmarkEvent(text);
    if (event === undefined) return;
    const counted = this.#options.countsUnits !== true;
    if (event.kind === "done") {
      if (!counted) return;
      this.#done += 1;
    } else if (event.kind === "count") {
      if (counted) this.#done = Math.max(this.#done, event.done);
      this.#current = event.id;
    } else if (event.id !== this.#current) this.#current = event.id;
    else return;
    this.#show();
  }

  /** One of the units the runner counts is done (countsUnits). */
  unitDone(): void {
    this.#done += 1;
    this.#show();
  }

  #show(): void {
    const now = this.#options.clock.now();
    const { status } = this.#options;
    const every = status === undefined ? (this.#options.everyMs ?? EVERY_MS) : STATUS_EVERY_MS;
    if (now - this.#last < every) return;
    this.#last = now;
    (status ?? this.#options.write)(this.#text(now));
  }

  #text(now: number): string {
    const { expected, label } = this.#options;
    const elapsedMs = now - this.#started;
    const elapsed = `${formatDuration(elapsedMs)} elapsed`;
    const current =
      this.#current === undefined
        ? ""
        : ` (now ${JSON.stringify(this.#current.slice(0, ID_CHARS)).slice(1, -1)})`;
    const noun = this.#options.noun ?? "benchmarks";
    if (expected === undefined || expected <= 0)
      return `${label}: ${this.#done} ${this.#done === 1 ? noun.replace(/s$/, "") : noun} done, ${elapsed}${current}`;
    const done = Math.min(this.#done, expected);
    const left =
      done > 0 && done < expected
        ? `, about ${formatDuration((elapsedMs / done) * (expected - done))} left`
        : "";
    return `${label}: ${done}/${expected} ${noun}, ${elapsed}${left}${current}`;
  }
}
