// Progress for a terminal and a CI log alike: whole lines only (no carriage-return animation
// that turns into garbage in a log), each with the elapsed time, and after the first round an
// estimate of the time left from the rounds measured so far.
import type { Clock } from "./ports.ts";

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${String(m).padStart(h > 0 ? 2 : 1, "0")}:${String(s).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

export class Progress {
  readonly #write: (text: string) => void;
  readonly #clock: Clock;
  readonly #started: number;
  readonly #roundMs: number[] = [];
  #roundStarted = 0;
  #rounds = 0;

  constructor(write: (text: string) => void, clock: Clock) {
    this.#write = write;
    this.#clock = clock;
    this.#started = clock.now();
  }

  elapsedMs(): number {
    return this.#clock.now() - this.#started;
  }

  line(text: string): void {
    this.#write(`benchgate [${formatDuration(this.elapsedMs())}] ${text}\n`);
  }

  warn(text: string): void {
    this.#write(`benchgate [${formatDuration(this.elapsedMs())}] warning: ${text}\n`);
  }

  startRounds(rounds: number): void {
    this.#rounds = rounds;
  }

  startRound(): void {
    this.#roundStarted = this.#clock.now();
  }

  /** Records a finished round; returns e.g. "round 2/5 done in 0:41, about 2:03 left". */
  finishRound(round: number): string {
    const ms = this.#clock.now() - this.#roundStarted;
    this.#roundMs.push(ms);
    const mean = this.#roundMs.reduce((a, b) => a + b, 0) / this.#roundMs.length;
    const left = this.#rounds - round;
    const eta = left > 0 ? `, about ${formatDuration(mean * left)} left` : "";
    return `round ${round}/${this.#rounds} done in ${formatDuration(ms)}${eta}`;
  }
}
