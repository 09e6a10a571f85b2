// Progress for a terminal and a CI log alike: whole lines (no carriage-return animation that
// turns into garbage in a log), each with the elapsed time, and after the first round an
// estimate of the time left from the rounds measured so far. With sequential rounds the number
// of rounds is not known in advance: the estimate is then a range (to min-rounds, to max-rounds).
// Base, head, base (`run --aba`) counts named steps instead of rounds ("head done in 0:05").
// On an interactive terminal (and only there) a status line may also update in place between
// lines: the benchmark a suite is on; every whole line clears it first.
import type { Clock } from "../ports/clock.ts";

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${String(m).padStart(h > 0 ? 2 : 1, "0")}:${String(s).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/** A line about round 1's pace after one of its pairs, or undefined. */
type PaceLine = (
  suite: string,
  pairs: { readonly done: number; readonly expected: number },
  times: { readonly suiteMs: number; readonly roundMs: number; readonly elapsedMs: number },
) => string | undefined;

export class Progress {
  readonly #write: (text: string) => void;
  readonly #clock: Clock;
  readonly #started: number;
  readonly #roundMs: number[] = [];
  #roundStarted = 0;
  #rounds = 0;
  #minRounds: number | undefined;
  /** Named steps instead of numbered rounds (base, head, base); undefined: rounds. */
  #steps: readonly string[] | undefined;
  readonly #status: ((text: string) => void) | undefined;
  #statusShown = false;
  #pace: PaceLine | undefined;

  constructor(write: (text: string) => void, clock: Clock, status?: (text: string) => void) {
    this.#write = write;
    this.#clock = clock;
    this.#started = clock.now();
    this.#status = status;
  }

  /** Whether a status line can update in place (an interactive terminal). */
  get live(): boolean {
    return this.#status !== undefined;
  }

  /** Replaces the status line (a terminal only; elsewhere nothing). */
  status(text: string): void {
    if (this.#status === undefined) return;
    this.#status(`benchgate [${formatDuration(this.elapsedMs())}] ${text}`);
    this.#statusShown = true;
  }

  #clearStatus(): void {
    if (!this.#statusShown) return;
    this.#status?.("");
    this.#statusShown = false;
  }

  elapsedMs(): number {
    return this.#clock.now() - this.#started;
  }

  line(text: string): void {
    this.#clearStatus();
    this.#write(`benchgate [${formatDuration(this.elapsedMs())}] ${text}\n`);
  }

  warn(text: string): void {
    this.#clearStatus();
    this.#write(`benchgate [${formatDuration(this.elapsedMs())}] warning: ${text}\n`);
  }

  /** `rounds` is the most there can be; `minRounds` is given for sequential rounds only. */
  startRounds(rounds: number, minRounds?: number): void {
    this.#rounds = rounds;
    this.#minRounds = minRounds;
    this.#steps = undefined;
  }

  /**
   * Steps that each run one side once, named for what they run ("base (1/2)", "head", …): the
   * names stand where a round's label would, in every line and in the time left.
   */
  startSteps(names: readonly string[]): void {
    this.#rounds = names.length;
    this.#minRounds = undefined;
    this.#steps = [...names];
  }

  /** "round 2/5", with sequential rounds "round 2 of 3–8", with steps the step's name. */
  roundLabel(round: number): string {
    const step = this.#steps?.[round - 1];
    if (step !== undefined) return step;
    return this.#minRounds === undefined
      ? `round ${round}/${this.#rounds}`
      : `round ${round} of ${this.#minRounds}–${this.#rounds}`;
  }

  startRound(): void {
    this.#roundStarted = this.#clock.now();
  }

  /** What round 1's pace says under pairs (cost-estimate.ts PaceWatch), once the plan is said. */
  watchPace(pace: PaceLine): void {
    this.#pace = pace;
  }

  /** After a pair of a suite in round `round`: the pace's line, when it has one. */
  pairDone(
    round: number,
    suite: string,
    pairs: { readonly done: number; readonly expected: number },
    suiteMs: number,
  ): void {
    if (round !== 1 || this.#pace === undefined) return;
    const roundMs = this.#clock.now() - this.#roundStarted;
    const text = this.#pace(suite, pairs, { suiteMs, roundMs, elapsedMs: this.elapsedMs() });
    if (text !== undefined) this.line(text);
  }

  /**
   * Records a finished round; returns e.g. "round 2/5 done in 0:41, about 2:03 left". With
   * sequential rounds: until min-rounds the full rounds' mean gives a range ("0:41 to 4:06
   * left"); after it, rounds shrink as benchmarks settle, so the latest round gives an upper
   * estimate ("up to about 2:03 left").
   */
  finishRound(round: number): string {
    const ms = this.#clock.now() - this.#roundStarted;
    this.#roundMs.push(ms);
    const mean = this.#roundMs.reduce((a, b) => a + b, 0) / this.#roundMs.length;
    const left = this.#rounds - round;
    const done = `${this.roundLabel(round)} done in ${formatDuration(ms)}`;
    if (left <= 0) return done;
    if (this.#minRounds === undefined) return `${done}, about ${formatDuration(mean * left)} left`;
    if (round < this.#minRounds)
      return `${done}, ${formatDuration(mean * (this.#minRounds - round))} to ${formatDuration(mean * left)} left`;
    return `${done}, up to about ${formatDuration(ms * left)} left`;
  }
}
