// The pure parts of the schedules bench (bench/schedules-analysis.ts) on a few rounds of the
// recorded busy condition: relabelling, injected slowdowns, the equal-time cut and the bootstrap.
// Nothing here depends on timings: the recording is data.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../src/core/settings.ts";
import {
  bootstrapRatio,
  equalTime,
  injected,
  injectionReplays,
  resampleRounds,
  sides,
  totalSeconds,
  withinTime,
  type Rounds,
} from "../../bench/schedules-analysis.ts";
import { buildIntervals, readRecording } from "../../bench/schedules-recording.ts";
import { rng } from "./support/synthetic.ts";

const recording = readRecording(path.join(import.meta.dirname, "../../bench/data/schedules-busy"));
/** Six rounds of the new schedule: three of each run order. */
const pairs: Rounds = recording.rounds.pairs.slice(0, 6);
const suite: Rounds = recording.rounds.suite.slice(0, 4);

const baseFirst = (r: Rounds[number]): boolean =>
  (r.base.summary.started_at ?? "") < (r.head.summary.started_at ?? "");

describe("the schedules bench's analysis", () => {
  it("reads each round's wall time as the sum of its processes' and orders rounds both ways", () => {
    const round1 = recording.processes.filter((p) => p.schedule === "pairs" && p.round === 1);
    expect(round1).toHaveLength(2 * recording.meta.benchmarks.length);
    expect(pairs[0]?.wallSeconds).toBeCloseTo(
      round1.reduce((s, p) => s + p.wall_s, 0),
      9,
    );
    expect(pairs.map(baseFirst)).toEqual([true, false, true, false, true, false]);
  });

  it("reads the bursty load's builds from load.log; one still running ends with the recording", () => {
    const log = [
      "build start 2026-11-28T10:00:00.000Z",
      "warning: unused variable",
      "build end 2026-11-28T10:01:30.000Z exit 0",
      "build start 2026-11-28T10:02:00.000Z",
    ].join("\n");
    expect(buildIntervals(log, "2026-11-28T10:03:00.000Z")).toEqual([
      {
        start: Date.parse("2026-11-28T10:00:00.000Z"),
        end: Date.parse("2026-11-28T10:01:30.000Z"),
      },
      {
        start: Date.parse("2026-11-28T10:02:00.000Z"),
        end: Date.parse("2026-11-28T10:03:00.000Z"),
      },
    ]);
  });

  it("relabels the swapped rounds and renumbers all of them 1…k", () => {
    const picked = [pairs[4], pairs[1], pairs[2]] as Rounds;
    const { base, head } = sides(picked, [false, true, false]);
    expect(base.map((s) => s.summary.round)).toEqual([1, 2, 3]);
    expect(head.map((s) => s.summary.round)).toEqual([1, 2, 3]);
    expect(base[1]?.summary.side).toBe("head");
    expect(head[1]?.summary.side).toBe("base");
    // The timestamps move with the files: the swapped round's order is still the recorded one.
    expect(base[1]?.summary.started_at).toBe(picked[1]?.head.summary.started_at);
    expect(base[0]?.summary.benchmarks).toBe(picked[0]?.base.summary.benchmarks);
  });

  it("slows exactly the chosen benchmarks of head, samples and estimates alike", () => {
    const { head } = sides(pairs.slice(0, 2));
    const chosen = recording.meta.benchmarks[3] as string;
    const slowed = injected(head, new Set([chosen]), 1.25);
    head.forEach((s, r) => {
      s.summary.benchmarks.forEach((b, i) => {
        const after = slowed[r]?.summary.benchmarks[i];
        if (b.id !== chosen) {
          expect(after).toBe(b);
          return;
        }
        expect(after?.samples).toEqual((b.samples ?? []).map((x) => x * 1.25));
        const median = b.estimates.median;
        const point = typeof median === "number" ? median : median?.point;
        const slowedMedian = after?.estimates.median;
        expect(typeof slowedMedian === "number" ? slowedMedian : slowedMedian?.point).toBeCloseTo(
          (point as number) * 1.25,
          6,
        );
      });
    });
  });

  it("cuts a schedule at the rounds whose summed wall time fits", () => {
    const first3 = totalSeconds(pairs.slice(0, 3));
    expect(withinTime(pairs, first3)).toHaveLength(3);
    expect(withinTime(pairs, first3 - 0.01)).toHaveLength(2);
    expect(withinTime(pairs, totalSeconds(pairs) + 1)).toHaveLength(pairs.length);
  });

  it("gives both schedules the same time: whole long rounds, the short ones cut there", () => {
    // The short schedule's recording ends halfway through the long one's third round.
    const long = recording.rounds.suite.slice(0, 3);
    const two = totalSeconds(long.slice(0, 2));
    const short = withinTime(recording.rounds.pairs, (two + totalSeconds(long)) / 2);
    const t = equalTime(long, short);
    expect(t).toBe(two);
    expect(equalTime(short, long)).toBe(t);
    const cut = totalSeconds(withinTime(short, t));
    expect(cut).toBeLessThanOrEqual(t);
    expect(t - cut).toBeLessThan(Math.max(...short.map((r) => r.wallSeconds)));
  });

  it("resamples rounds within each run order, reproducibly", () => {
    const a = resampleRounds(pairs, rng(7));
    expect(a).toHaveLength(pairs.length);
    expect(a.filter(baseFirst)).toHaveLength(pairs.filter(baseFirst).length);
    expect(a.every((r) => pairs.includes(r))).toBe(true);
    expect(resampleRounds(pairs, rng(7))).toEqual(a);
  });

  it("bootstraps a ratio inside the range its resamples can reach", () => {
    const meanWall = (rounds: Rounds): number => totalSeconds(rounds) / rounds.length;
    const r = bootstrapRatio(suite, pairs, meanWall, 1000, rng(3));
    expect(r.point).toBeCloseTo(meanWall(suite) / meanWall(pairs), 12);
    const walls = (rs: Rounds): number[] => rs.map((x) => x.wallSeconds);
    expect(r.lower).toBeLessThanOrEqual(r.point);
    expect(r.upper).toBeGreaterThanOrEqual(r.point);
    expect(r.lower).toBeGreaterThanOrEqual(Math.min(...walls(suite)) / Math.max(...walls(pairs)));
    expect(r.upper).toBeLessThanOrEqual(Math.max(...walls(suite)) / Math.min(...walls(pairs)));
    expect(r.undefined).toBe(0);
    const none = bootstrapRatio(suite, pairs, () => Number.NaN, 10, rng(3));
    expect(none.undefined).toBe(10);
  });

  it("counts as found the slowed benchmarks the product's compare calls regressed", () => {
    // ×3 in every round is far outside any noise of these six rounds.
    const r = injectionReplays(pairs, resolveSettings(), 3, 4, rng(11));
    expect(r.slowed).toBe(4 * Math.round(recording.meta.benchmarks.length / 4));
    expect(r.found).toBe(r.slowed);
    expect(r.unslowedFlagged).toBe(0);
  });
});
