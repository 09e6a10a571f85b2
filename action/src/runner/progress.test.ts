import { describe, expect, it } from "vitest";
import { Progress, formatDuration } from "./progress.ts";

describe("formatDuration", () => {
  it.each([
    [0, "0:00"],
    [5_000, "0:05"],
    [59_000, "0:59"],
    [62_000, "1:02"],
    [600_000, "10:00"],
    [3_599_000, "59:59"],
    [3_600_000, "1:00:00"],
    [3_723_000, "1:02:03"],
    [36_000_000, "10:00:00"],
  ])("%d ms is %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("rounds to whole seconds and never goes negative", () => {
    expect(formatDuration(4_499)).toBe("0:04");
    expect(formatDuration(59_500)).toBe("1:00");
    expect(formatDuration(-5_000)).toBe("0:00");
  });
});

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return {
    clock: { now: () => now, date: () => new Date(now) },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("Progress", () => {
  it("writes whole lines prefixed with the time since it was created", () => {
    const { clock, advance } = fakeClock();
    const lines: string[] = [];
    const progress = new Progress((text) => lines.push(text), clock);
    progress.line("checking out base");
    advance(65_000);
    progress.warn("load average 2.5");
    expect(lines).toEqual([
      "benchgate [0:00] checking out base\n",
      "benchgate [1:05] warning: load average 2.5\n",
    ]);
    expect(progress.elapsedMs()).toBe(65_000);
  });

  it("estimates the time left from the mean of the rounds so far; none after the last", () => {
    const { clock, advance } = fakeClock();
    const progress = new Progress(() => undefined, clock);
    advance(30_000); // building: not part of any round
    progress.startRounds(3);
    progress.startRound();
    advance(10_000);
    expect(progress.finishRound(1)).toBe("round 1/3 done in 0:10, about 0:20 left");
    progress.startRound();
    advance(20_000);
    expect(progress.finishRound(2)).toBe("round 2/3 done in 0:20, about 0:15 left");
    advance(1_000); // between rounds: not counted
    progress.startRound();
    advance(5_000);
    expect(progress.finishRound(3)).toBe("round 3/3 done in 0:05");
    expect(progress.elapsedMs()).toBe(66_000);
  });

  it("shows hours when the estimate needs them", () => {
    const { clock, advance } = fakeClock();
    const progress = new Progress(() => undefined, clock);
    progress.startRounds(10);
    progress.startRound();
    advance(20 * 60_000);
    expect(progress.finishRound(1)).toBe("round 1/10 done in 20:00, about 3:00:00 left");
  });

  it("writes nothing itself when finishing a round (the caller prints the returned line)", () => {
    const { clock } = fakeClock();
    const lines: string[] = [];
    const progress = new Progress((text) => lines.push(text), clock);
    progress.startRounds(1);
    progress.startRound();
    expect(progress.finishRound(1)).toBe("round 1/1 done in 0:00");
    expect(lines).toEqual([]);
  });
});

describe("Progress with sequential rounds", () => {
  it("labels rounds 'of min–max' and gives a range until min-rounds, an upper estimate after", () => {
    const { clock, advance } = fakeClock();
    const progress = new Progress(() => undefined, clock);
    progress.startRounds(8, 3);
    expect(progress.roundLabel(2)).toBe("round 2 of 3–8");
    progress.startRound();
    advance(10_000);
    expect(progress.finishRound(1)).toBe("round 1 of 3–8 done in 0:10, 0:20 to 1:10 left");
    progress.startRound();
    advance(10_000);
    progress.finishRound(2);
    progress.startRound();
    advance(10_000);
    expect(progress.finishRound(3)).toBe("round 3 of 3–8 done in 0:10, up to about 0:50 left");
    // Later rounds run fewer benchmarks: the latest round, not the mean, bounds the rest.
    progress.startRound();
    advance(2_000);
    expect(progress.finishRound(4)).toBe("round 4 of 3–8 done in 0:02, up to about 0:08 left");
    progress.startRound();
    expect(progress.finishRound(8)).toBe("round 8 of 3–8 done in 0:00");
  });

  it("a fixed count keeps 'round r/N'", () => {
    const { clock } = fakeClock();
    const progress = new Progress(() => undefined, clock);
    progress.startRounds(5);
    expect(progress.roundLabel(2)).toBe("round 2/5");
  });
});

describe("Progress with named steps (base, head, base)", () => {
  it("labels each step by its name and estimates the rest from the steps so far", () => {
    const { clock, advance } = fakeClock();
    const progress = new Progress(() => undefined, clock);
    progress.startSteps(["base (1/2)", "head", "base (2/2)"]);
    expect(progress.roundLabel(2)).toBe("head");
    progress.startRound();
    advance(10_000);
    expect(progress.finishRound(1)).toBe("base (1/2) done in 0:10, about 0:20 left");
    progress.startRound();
    advance(30_000);
    expect(progress.finishRound(2)).toBe("head done in 0:30, about 0:20 left");
    progress.startRound();
    advance(10_000);
    expect(progress.finishRound(3)).toBe("base (2/2) done in 0:10");
  });

  it("rounds started after steps are numbered again", () => {
    const { clock } = fakeClock();
    const progress = new Progress(() => undefined, clock);
    progress.startSteps(["base (1/2)", "head", "base (2/2)"]);
    progress.startRounds(5);
    expect(progress.roundLabel(2)).toBe("round 2/5");
  });
});

describe("Progress's status line (a terminal only)", () => {
  it("is cleared before every whole line, and is nothing without a terminal", () => {
    const out: string[] = [];
    const clock = { now: () => 61_000, date: () => new Date(0) };
    const live = new Progress(
      (t) => out.push(`line:${t}`),
      clock,
      (t) => out.push(`status:${t}`),
    );
    expect(live.live).toBe(true);
    live.status("micro: 1/3 benchmarks");
    live.status("micro: 2/3 benchmarks");
    live.line("round 1/3 done");
    live.line("comparing");
    expect(out).toEqual([
      "status:benchgate [0:00] micro: 1/3 benchmarks",
      "status:benchgate [0:00] micro: 2/3 benchmarks",
      "status:",
      "line:benchgate [0:00] round 1/3 done\n",
      "line:benchgate [0:00] comparing\n",
    ]);
    const plain: string[] = [];
    const log = new Progress((t) => plain.push(t), clock);
    expect(log.live).toBe(false);
    log.status("micro: 1/3 benchmarks");
    expect(plain).toEqual([]);
  });
});
