// The statistics of a merged sharded run: each shard's rounds are blocks of their own, since the
// shards ran on different machines; one round model, one false-discovery family over them all.
import { describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import { compare } from "./compare-summaries.ts";
import type { SourcedSummary } from "./pairing.ts";
import { resolveSettings } from "./settings.ts";
import { blockOf, blockParts, describeBlock } from "./shard-blocks.ts";
import { scaleSamples, syntheticSuite } from "../../test/support/synthetic.ts";
import type { Environment } from "../schemas/summary.gen.ts";

const settings = resolveSettings();

/** One shard's files: its own ids, its tag and its machine. */
function shard(
  files: readonly SourcedSummary[],
  index: number,
  count: number,
  environment?: Environment,
): SourcedSummary[] {
  return files.map((f) => ({
    source: `shard-${index}/${f.source}`,
    summary: {
      ...f.summary,
      shard: { index, count },
      ...(environment === undefined ? {} : { environment }),
      benchmarks: f.summary.benchmarks.map((b) => ({ ...b, id: `s${index}/${b.id}` })),
    },
  }));
}

describe("shard blocks", () => {
  it("numbers (shard, round) blocks apart from plain rounds", () => {
    expect(blockOf(3, undefined)).toBe(3);
    const b = blockOf(3, { index: 2, count: 4 });
    expect(blockParts(b)).toEqual({ round: 3, shard: 2 });
    expect(blockParts(7)).toEqual({ round: 7 });
    expect(describeBlock(b)).toBe("round 3 of shard 2");
  });

  it("keeps a round shock on one machine to that machine's benchmarks", () => {
    // A/A on both shards; on shard 2 head's round 3 ran 20 % slower for every benchmark. Blocked
    // by (shard, round), that is one block's shock; blocked by round alone it would be half of
    // round 3's benchmarks, which a robust centre of the round treats as outliers.
    for (const seed of [11, 12, 13]) {
      const one = syntheticSuite({ benchmarks: 15, rounds: 5, samples: 10, noise: 0.02, seed });
      const two = syntheticSuite({
        benchmarks: 15,
        rounds: 5,
        samples: 10,
        noise: 0.02,
        seed: seed + 100,
      });
      const slow = scaleSamples(two.head, (round) => (round === 3 ? 1.2 : 1));
      const report = compare(
        [...shard(one.base, 1, 2), ...shard(two.base, 2, 2)],
        [...shard(one.head, 1, 2), ...shard(slow, 2, 2)],
        { settings },
      );
      expect(report.counts.regressed, `seed ${seed}`).toBe(0);
      expect(report.verdict, `seed ${seed}`).not.toBe("fail");
      expect(report.suites?.[0]?.model).toBe("two-way");
      expect(report.settings.rounds).toBe(5);
      expect(report.rounds).toHaveLength(10);
      expect(report.rounds.filter((r) => r.shard === 2).map((r) => r.round)).toEqual([
        1, 2, 3, 4, 5,
      ]);
      expect(report.shards?.map((s) => [s.index, s.benchmarks])).toEqual([
        [1, 15],
        [2, 15],
      ]);
    }
  });

  it("still finds a real change on one shard, in one family with the others", () => {
    const one = syntheticSuite({ benchmarks: 15, rounds: 5, samples: 10, noise: 0.02, seed: 5 });
    const two = syntheticSuite({
      benchmarks: 15,
      rounds: 5,
      samples: 10,
      noise: 0.02,
      seed: 6,
      scale: (i) => (i === 4 ? 1.3 : 1),
    });
    const report = compare(
      [...shard(one.base, 1, 2), ...shard(two.base, 2, 2)],
      [...shard(one.head, 1, 2), ...shard(two.head, 2, 2)],
      { settings },
    );
    expect(report.benchmarks.filter((b) => b.verdict === "regressed").map((b) => b.id)).toEqual([
      "s2/group/bench-4",
    ]);
  });

  it("says which shard ran on another machine, and compares base with head within a shard", () => {
    const one = syntheticSuite({ benchmarks: 3, rounds: 3, samples: 5, noise: 0.02, seed: 1 });
    const two = syntheticSuite({ benchmarks: 3, rounds: 3, samples: 5, noise: 0.02, seed: 2 });
    const machine = (cpu: string, runner: string): Environment => ({
      cpu_model: cpu,
      runner_name: runner,
      fingerprint: `${cpu}-${runner}`,
    });
    const report = compare(
      [
        ...shard(one.base, 1, 2, machine("Xeon", "a")),
        ...shard(two.base, 2, 2, machine("EPYC", "b")),
      ],
      [
        ...shard(one.head, 1, 2, machine("Xeon", "a")),
        ...shard(two.head, 2, 2, machine("EPYC", "b")),
      ],
      { settings },
    );
    expect(report.environment.mismatch).toBe(false);
    expect(report.environment.warnings.join("\n")).toMatch(
      /shard 2 ran on a different machine than shard 1 \(cpu_model "Xeon" vs "EPYC"\)/,
    );
    const split = compare(
      shard(one.base, 1, 1, machine("Xeon", "a")),
      shard(one.head, 1, 1, machine("EPYC", "a")),
      { settings },
    );
    expect(split.environment.mismatch).toBe(true);
    expect(split.environment.differences).toContain('shard 1: cpu_model: base "Xeon", head "EPYC"');
  });

  it("refuses sharded and unsharded summaries together, and shards of different splits", () => {
    const s = syntheticSuite({ benchmarks: 3, rounds: 3, samples: 5, noise: 0.02, seed: 3 });
    expect(() => compare([...shard(s.base, 1, 2), ...s.base], s.head, { settings })).toThrow(
      InputError,
    );
    expect(() =>
      compare([...shard(s.base, 1, 2), ...shard(s.base, 2, 3)], shard(s.head, 1, 2), { settings }),
    ).toThrow(/different splits/);
  });
});
