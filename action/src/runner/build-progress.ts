// Progress while a side builds: a cold build compiles hundreds of crates for minutes, and a run
// that prints nothing meanwhile looks hung. Cargo's own stderr lines ("Compiling syn v2.0.87")
// are counted, and a whole line goes out at most every 10 s when a crate was compiled since the
// last one, and at least every 25 s while the step runs (a heartbeat, also through a long link
// that prints nothing): "building base: 0:45 elapsed, 120 crates compiled (now syn v2.0.87)".
// On an interactive terminal the same text is the status line, updated as crates start.
import type { Clock } from "../ports/clock.ts";
import type { ProcessOptions } from "../ports/process.ts";
import { formatDuration, type Progress } from "./progress.ts";

/** A changed count at most this often, in a CI log. */
const EVERY_MS = 10_000;
/** Something at least this often, whatever cargo says: no silence of 30 s. */
const HEARTBEAT_MS = 25_000;
/** How often the heartbeat looks. */
const TICK_MS = 5_000;
const STATUS_EVERY_MS = 250;

/** "Compiling syn v2.0.87" (also "Checking", "Documenting"), or undefined. */
export function compiledCrate(line: string): string | undefined {
  const m = /^\s*(?:Compiling|Checking) (\S{1,100}) (v\S{1,60})/.exec(line);
  return m === null ? undefined : `${m[1] ?? ""} ${m[2] ?? ""}`;
}

interface BuildProgressOptions {
  /** "building base". */
  readonly label: string;
  readonly clock: Clock;
  readonly write: (text: string) => void;
  /** A terminal's status line: given, crates update it in place (the heartbeat still writes). */
  readonly status?: (text: string) => void;
  readonly everyMs?: number;
  readonly heartbeatMs?: number;
}

export class BuildProgress {
  readonly #options: BuildProgressOptions;
  readonly #started: number;
  #last: number;
  #lastStatus = -Infinity;
  #crates = 0;
  #current: string | undefined;
  #changed = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: BuildProgressOptions) {
    this.#options = options;
    this.#started = options.clock.now();
    this.#last = this.#started;
  }

  /** Starts the heartbeat (a timer that does not keep the process alive). */
  start(tickMs = TICK_MS): this {
    this.#timer = setInterval(() => this.tick(), tickMs);
    this.#timer.unref?.();
    return this;
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One line of the build's output. */
  line(text: string): void {
    const crate = compiledCrate(text);
    if (crate === undefined) return;
    this.#crates += 1;
    this.#current = crate;
    this.#changed = true;
    const now = this.#options.clock.now();
    const { status } = this.#options;
    if (status !== undefined) {
      if (now - this.#lastStatus >= STATUS_EVERY_MS) {
        this.#lastStatus = now;
        status(this.#text(now));
      }
      return;
    }
    if (now - this.#last >= (this.#options.everyMs ?? EVERY_MS)) this.#write(now);
  }

  /** The heartbeat: a line when nothing was said for a while. */
  tick(): void {
    const now = this.#options.clock.now();
    const quiet = now - this.#last;
    if (quiet >= (this.#options.heartbeatMs ?? HEARTBEAT_MS)) this.#write(now);
    else if (
      this.#changed &&
      this.#options.status === undefined &&
      quiet >= (this.#options.everyMs ?? EVERY_MS)
    )
      this.#write(now);
  }

  #write(now: number): void {
    this.#last = now;
    this.#changed = false;
    this.#options.write(this.#text(now));
  }

  #text(now: number): string {
    const elapsed = `${formatDuration(now - this.#started)} elapsed`;
    const crates = `${this.#crates} crate${this.#crates === 1 ? "" : "s"} compiled`;
    const current = this.#current === undefined ? "" : ` (now ${this.#current})`;
    return `${this.#options.label}: ${elapsed}, ${crates}${current}`;
  }
}

/**
 * A cargo step's progress on the run's lines (or status line): `onLine` for the step's process
 * options, `stop` once it ended.
 */
export function watchCargo(
  label: string,
  deps: { readonly progress: Progress; readonly clock: Clock },
): { readonly onLine: NonNullable<ProcessOptions["onLine"]>; readonly stop: () => void } {
  const { progress } = deps;
  const watch = new BuildProgress({
    label,
    clock: deps.clock,
    write: (text) => progress.line(text),
    ...(progress.live ? { status: (text: string) => progress.status(text) } : {}),
  }).start();
  return {
    onLine: (line, stream) => {
      if (stream === "stderr") watch.line(line);
    },
    stop: () => watch.stop(),
  };
}
