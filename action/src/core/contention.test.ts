import { describe, expect, it } from "vitest";
import { contentionOf, CONTENDED_SHARE } from "./contention.ts";
import { compare } from "./compare-summaries.ts";
import { resolveSettings } from "./settings.ts";
import type { SourcedSummary } from "./pairing.ts";
import { syntheticSuite } from "../../test/support/synthetic.ts";
import { renderComment } from "../render/comment.ts";

/** The same files with each benchmark run's process: wall 1000 ms and cpu = share(round, id). */
function withProcess(
  files: readonly SourcedSummary[],
  share: (round: number, id: string) => number | undefined,
): SourcedSummary[] {
  return files.map((f) => ({
    ...f,
    summary: {
      ...f.summary,
      benchmarks: f.summary.benchmarks.map((b) => {
        const s = share(f.summary.round, b.id);
        return {
          ...b,
          process: { wall_ms: 1000, ...(s === undefined ? {} : { cpu_ms: 1000 * s }) },
        };
      }),
    },
  }));
}

describe("contention", () => {
  const s = syntheticSuite({ benchmarks: 12, rounds: 5, samples: 10, noise: 0.01, seed: 5 });

  it("counts runs well under their suite's undisturbed CPU share, and says so in the comment", () => {
    // Round 3 of head ran beside another busy process: half a CPU.
    const head = withProcess(s.head, (round) => (round === 3 ? 0.5 : 0.97));
    const base = withProcess(s.base, () => 0.97);
    expect(contentionOf([...base, ...head])).toEqual({
      processes: 120,
      contended: 12,
      threshold: CONTENDED_SHARE,
      medianShare: 0.97,
    });
    const report = compare(base, head, { settings: resolveSettings() });
    expect(report.noise.contention).toEqual({
      processes: 120,
      contended: 12,
      threshold: CONTENDED_SHARE,
      median_share: 0.97,
    });
    expect(renderComment(report)).toContain(
      "The machine was busy: 12 of 120 benchmark runs got under 71 % of their suite's usual CPU share",
    );
  });

  it("judges a suite by its own usual share: waiting on I/O or using threads is not contention", () => {
    // An I/O-bound suite at 0.3 and a multi-threaded one at 1.9, neither disturbed.
    const io = withProcess(s.base, (_, id) => (id.endsWith("-1") ? 0.28 : 0.3));
    expect(contentionOf(io)?.contended).toBe(0);
    const threads = withProcess(s.head, (round) => (round === 2 ? 0.9 : 1.9));
    expect(contentionOf(threads)?.contended).toBe(12);
  });

  it("is absent when no process recorded its CPU time, and quiet in the comment when nothing was contended", () => {
    expect(contentionOf(withProcess(s.base, () => undefined))).toBeUndefined();
    expect(
      compare(s.base, s.head, { settings: resolveSettings() }).noise.contention,
    ).toBeUndefined();
    const calm = compare(
      withProcess(s.base, () => 1),
      withProcess(s.head, () => 0.99),
      { settings: resolveSettings() },
    );
    expect(calm.noise.contention?.contended).toBe(0);
    expect(renderComment(calm)).not.toContain("The machine was busy");
  });
});
