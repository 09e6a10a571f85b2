// Merging shard folders, in memory: the split each shard.json lists (units.dealt) is checked
// against its own labels and digest and against what its summaries hold. A shard that measured
// none or only some of its units, a benchmark of no shard's units, a shard relabelled 1/1 and
// shards of different filters are errors, never a decision over the rest (docs/shards.md).
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SuitePlan } from "../config/run-config.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import { InputError } from "../errors.ts";
import { splitSuites } from "../runner/shard-plan.ts";
import type { BenchShard } from "../schemas/shard.gen.ts";
import type { Benchmark, BenchSummary } from "../schemas/summary.gen.ts";
import { nodeFileReader } from "../io/node-files.ts";
import {
  mergeShardFolders,
  readShardManifest,
  type MergeExpectation,
  type ShardFolder,
} from "./merge-shards.ts";
import { checkMeasured } from "./shard-units.ts";

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");
const BASE = "a".repeat(40);
const HEAD = "b".repeat(40);
const ROUNDS = 2;

/** One hyperfine suite of four commands (four units) and a custom suite run whole (one unit). */
const SUITES: readonly SuitePlan[] = [
  {
    kind: "hyperfine",
    name: "cli",
    timeoutMs: 60_000,
    commands: ["a", "b", "c", "d"].map((name) => ({ name, command: `sh work.sh ${name}` })),
    args: [],
  },
  { kind: "custom", name: "e2e", timeoutMs: 60_000, command: ["harness"], output: "out.json" },
];

const bench = (suite: string, id: string): Benchmark => ({
  id,
  suite,
  source: suite === "cli" ? "hyperfine" : "custom",
  unit: "s",
  direction: "smaller_is_better",
  estimates: { median: 1 },
});

/** The shard.json `run --shard index/count` writes for SUITES. */
function manifest(index: number, count: number, filter?: string): BenchShard {
  const split = splitSuites(SUITES, new Map(), [], { index, count });
  return {
    schema_version: 1,
    index,
    count,
    split: sha256(new TextEncoder().encode(split.canonical)),
    base: BASE,
    head: HEAD,
    rounds: ROUNDS,
    ...(filter === undefined ? {} : { filter }),
    units: split.units,
    golden: [],
  };
}

/** Every benchmark a shard was dealt, as its summaries would hold them. */
function dealtBenchmarks(shard: BenchShard): Benchmark[] {
  return shard.units.dealt
    .filter((u) => u.shard === shard.index)
    .flatMap((u) => u.members)
    .map((m) => bench(m.suite, m.id ?? `${m.suite}/whole`));
}

/** A shard's folder holding `benchmarks` (default: exactly its own) in every round. */
function folder(shard: BenchShard, benchmarks = dealtBenchmarks(shard)): ShardFolder {
  const side = (s: "base" | "head"): SourcedSummary[] =>
    Array.from({ length: ROUNDS }, (_, r) => {
      const summary: BenchSummary = {
        schema_version: 1,
        side: s,
        round: r + 1,
        shard: { index: shard.index, count: shard.count },
        commit: s === "base" ? BASE : HEAD,
        benchmarks,
      };
      return { source: `shard-${shard.index}/summaries/${s}-${r + 1}.json`, summary };
    });
  return { dir: `shard-${shard.index}`, shard, base: side("base"), head: side("head") };
}

function refusal(folders: readonly ShardFolder[], expected: MergeExpectation = {}): string {
  try {
    mergeShardFolders(folders, expected, sha256);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).describe();
  }
  throw new Error("expected the shards to be refused");
}

describe("mergeShardFolders: what each shard measured against what it was dealt", () => {
  const [one, two] = [manifest(1, 2), manifest(2, 2)];

  it("merges shards that measured exactly their units", () => {
    expect(one.units.mine + two.units.mine).toBe(5);
    const merged = mergeShardFolders([folder(two), folder(one)], {}, sha256);
    expect(merged.shards.map((s) => s.index)).toEqual([1, 2]);
    const ids = merged.head
      .filter((s) => s.summary.round === 1)
      .flatMap((s) => s.summary.benchmarks);
    expect(ids.map((b) => b.id).sort()).toEqual(["a", "b", "c", "d", "e2e/whole"]);
  });

  it("refuses a shard whose summaries hold none of its units", () => {
    expect(two.units.mine).toBeGreaterThanOrEqual(2);
    const line = refusal([folder(one), folder(two, [])]);
    expect(line).toMatch(
      new RegExp(`shard 2/2 measured none of its ${two.units.mine} units \\(missing: .*\\)`),
    );
    expect(line).toMatch(/^shard-2\/summaries: /);
  });

  it("refuses a shard that measured only some of its units, naming the one missing", () => {
    const [kept, ...rest] = dealtBenchmarks(two);
    // A suite run whole is named as the suite; a benchmark by its id.
    const missing = rest.map((b) =>
      b.source === "custom" ? `suite ${JSON.stringify(b.suite)}` : JSON.stringify(b.id),
    );
    const line = refusal([folder(one), folder(two, kept === undefined ? [] : [kept])]);
    expect(line).toMatch(
      new RegExp(`shard 2/2 did not measure ${rest.length} of its ${two.units.mine} units`),
    );
    for (const name of missing) expect(line).toContain(name);
  });

  it("refuses a benchmark of a unit that is in no shard's list", () => {
    const line = refusal([folder(one, [...dealtBenchmarks(one), bench("cli", "z")]), folder(two)]);
    expect(line).toMatch(
      /shard 1\/2 measured "z" \(suite "cli"\), which is in no shard's units: not a benchmark of this split/,
    );
  });

  it("refuses a benchmark measured by the shard it was not dealt to", () => {
    const [theirs] = dealtBenchmarks(two);
    expect(() => checkMeasured(one, folder(one, [theirs as Benchmark]).base, "shard-1")).toThrow(
      /shard 1\/2 measured .*, which was dealt to shard 2\/2/,
    );
  });

  it("refuses a lone shard relabelled 1/1: its units were dealt over 2 shards", () => {
    const relabelled = { ...one, count: 1 };
    const line = refusal([folder(relabelled)]);
    expect(line).toMatch(
      /shard-1\/shard.json: says it is shard 1\/1, but its units were dealt to 2 shards: it is one shard of a larger split/,
    );
    // Relabelled so that every unit is its own: the digest is still of a split into 2 shards.
    const all = {
      ...relabelled,
      units: {
        ...one.units,
        mine: one.units.total,
        dealt: one.units.dealt.map((u) => ({ ...u, shard: 1 })),
      },
    };
    expect(refusal([folder(all)])).toMatch(
      /"split" is not the digest of the units it lists dealt over 1 shard:/,
    );
  });

  it("refuses a shard whose unit counts are not those of its list", () => {
    const line = refusal([folder({ ...one, units: { ...one.units, mine: 0 } }), folder(two)]);
    expect(line).toMatch(/shard 1\/2 says it had 0 of 5 units, but it lists \d of 5/);
  });

  it("reads the shard.json of a split of 20,000 benchmarks, each listed with its shard", async () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `group_${i % 50}/function_${i}/${i}`);
    const criterion: SuitePlan = {
      kind: "criterion",
      name: "micro",
      timeoutMs: 60_000,
      bench: "micro",
      features: [],
      args: [],
    };
    const split = splitSuites([criterion], new Map([["micro", ids]]), [], { index: 1, count: 4 });
    const shard = { ...manifest(1, 4), units: split.units };
    const dir = mkdtempSync(path.join(os.tmpdir(), "benchgate-shard-"));
    try {
      const text = JSON.stringify(shard, null, 2) + "\n";
      expect(text.length).toBeGreaterThan(1024 * 1024);
      writeFileSync(path.join(dir, "shard.json"), text);
      const read = await readShardManifest(nodeFileReader, dir);
      expect(read.units.dealt).toHaveLength(20_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses shards that ran with different filters, or with another than the report's", () => {
    const filtered = { ...two, filter: "^a$" };
    expect(refusal([folder(one), folder(filtered)])).toMatch(
      /shard 2\/2 ran with --filter "\^a\$", but shard 1\/2 \(shard-1\) ran without a filter: not one run/,
    );
    expect(refusal([folder(one), folder(two)], { filter: "^a$" })).toMatch(
      /shard 1\/2 ran without a filter, but this report is for a run with --filter "\^a\$"/,
    );
    expect(
      refusal([folder({ ...one, filter: "^a$" }), folder(filtered)], { filter: null }),
    ).toMatch(/this report is for a run without a filter/);
  });

  it("gathers each shard's Where by suite and id, only for benchmarks the shard measured", () => {
    const mine = dealtBenchmarks(two)[0] as Benchmark;
    const where = { note: "Where could not be computed: the step's time cap (60 s) was reached" };
    const said = { ...two, where: [{ suite: mine.suite, id: mine.id, where }] };
    const merged = mergeShardFolders([folder(one), folder(said)], {}, sha256);
    expect([...(merged.wheres?.values() ?? [])]).toEqual([where]);
    expect(mergeShardFolders([folder(one), folder(two)], {}, sha256).wheres).toBeUndefined();
    // Shard 2 speaking of shard 1's benchmark: as much an overlap as measuring it.
    const other = dealtBenchmarks(one)[0] as Benchmark;
    const stranger = { ...two, where: [{ suite: other.suite, id: other.id, where }] };
    expect(refusal([folder(one), folder(stranger)])).toMatch(
      new RegExp(
        `shard 2/2 has a where for "${other.id}" of suite "${other.suite}", which it did not measure`,
      ),
    );
  });
});
