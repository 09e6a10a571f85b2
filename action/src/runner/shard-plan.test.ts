import { describe, expect, it } from "vitest";
import type { SuitePlan } from "../config/run-config.ts";
import { InputError } from "../errors.ts";
import { parseShard } from "../core/shard-blocks.ts";
import { canonicalSplit, splitSuites } from "./shard-plan.ts";

const criterion = (name: string): SuitePlan => ({
  kind: "criterion",
  name,
  timeoutMs: 60_000,
  bench: name,
  features: [],
  args: [],
});
const hyperfine = (name: string, commands: readonly string[]): SuitePlan => ({
  kind: "hyperfine",
  name,
  timeoutMs: 60_000,
  commands: commands.map((c) => ({ name: c, command: `echo ${c}` })),
  args: [],
});
const custom = (name: string): SuitePlan => ({
  kind: "custom",
  name,
  timeoutMs: 60_000,
  command: ["harness"],
  output: "summary.json",
});

const ids = (prefix: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}/${i}`);
const SUITES = [
  criterion("micro"),
  hyperfine("cli", ids("cmd", 7)),
  custom("archive"),
  custom("e2e"),
];
const LISTED = new Map([["micro", ids("parse", 40)]]);

function splits(count: number, together: readonly (readonly [string, string])[] = []) {
  return Array.from({ length: count }, (_, i) =>
    splitSuites(SUITES, LISTED, together, { index: i + 1, count }),
  );
}

describe("parseShard", () => {
  it("reads I/N and refuses anything else", () => {
    expect(parseShard("2/3", "--shard")).toEqual({ index: 2, count: 3 });
    expect(parseShard("1/1", "--shard")).toEqual({ index: 1, count: 1 });
    for (const bad of ["0/3", "4/3", "1/65", "2", "a/b", "1/3/5", "-1/3", ""])
      expect(() => parseShard(bad, "--shard"), bad).toThrow(InputError);
  });
});

describe("splitSuites", () => {
  it("gives every unit to exactly one shard, whatever the count", () => {
    for (const count of [1, 2, 3, 5, 8]) {
      const parts = splits(count);
      const listed = parts.flatMap((p) => [...(p.plan.active ?? [])]);
      expect(new Set(listed).size, `${count} shards`).toBe(listed.length);
      expect(listed.sort()).toEqual([...ids("parse", 40), ...ids("cmd", 7)].sort());
      const whole = parts.flatMap((p) => p.mine.whole);
      expect(whole.sort()).toEqual(["archive", "e2e"]);
      // Every shard computed the same split.
      expect(new Set(parts.map((p) => p.canonical)).size).toBe(1);
      expect(parts.reduce((n, p) => n + p.units.mine, 0)).toBe(49);
      expect(parts[0]?.units.total).toBe(49);
    }
  });

  it("deals the units out evenly: shards differ by one unit at most", () => {
    for (const count of [2, 3, 4, 7]) {
      const sizes = splits(count).map((p) => p.units.mine);
      expect(
        Math.max(...sizes) - Math.min(...sizes),
        `${count}: ${sizes.join(" ")}`,
      ).toBeLessThanOrEqual(1);
    }
  });

  it("narrows each suite to its shard's benchmarks: Criterion by an exact-id filter", () => {
    const [first] = splits(3);
    const micro = first?.plan.suites.find((s) => s.name === "micro");
    expect(micro?.kind).toBe("criterion");
    const filter = micro?.kind === "criterion" ? (micro.filter ?? "") : "";
    const mine = [...(first?.plan.active ?? [])].filter((id) => id.startsWith("parse/"));
    expect(mine.length).toBeGreaterThan(0);
    const re = new RegExp(filter);
    for (const id of ids("parse", 40)) expect(re.test(id), id).toBe(mine.includes(id));
    const cli = first?.plan.suites.find((s) => s.name === "cli");
    if (cli?.kind === "hyperfine")
      for (const c of cli.commands) expect(first?.plan.active?.has(c.name)).toBe(true);
  });

  it("keeps benchmarks compared with each other on one shard", () => {
    const pairs = [
      ["parse/0", "parse/1"],
      ["parse/1", "cmd/3"],
      ["parse/20", "parse/39"],
    ] as const;
    for (const count of [2, 3, 5]) {
      const parts = splits(count, pairs);
      const shardOf = (id: string): number =>
        parts.findIndex((p) => p.plan.active?.has(id) === true);
      expect(shardOf("parse/0")).toBe(shardOf("parse/1"));
      expect(shardOf("parse/1")).toBe(shardOf("cmd/3"));
      expect(shardOf("parse/20")).toBe(shardOf("parse/39"));
      // A chain of pairs is one unit: 49 − 3 joins.
      expect(parts[0]?.units.total).toBe(46);
    }
  });

  it("lists every unit with its shard, joined benchmarks as one unit: merge recomputes the split from it", () => {
    const pairs = [["parse/0", "cmd/3"]] as const;
    const parts = splits(3, pairs);
    for (const [i, p] of parts.entries()) {
      // Every shard lists the same units, and its own are the ones it runs.
      expect(p.units.dealt).toEqual(parts[0]?.units.dealt);
      expect(canonicalSplit(3, p.units.dealt)).toBe(p.canonical);
      const own = p.units.dealt.filter((u) => u.shard === i + 1);
      expect(own).toHaveLength(p.units.mine);
      const ids = own.flatMap((u) => u.members.flatMap((m) => (m.id === undefined ? [] : [m.id])));
      expect(ids.sort()).toEqual([...(p.plan.active ?? [])].sort());
      const whole = own.flatMap((u) => u.members.filter((m) => m.id === undefined));
      expect(whole.map((m) => m.suite).sort()).toEqual([...p.mine.whole].sort());
    }
    const dealt = parts[0]?.units.dealt ?? [];
    expect(dealt).toHaveLength(48);
    const joined = dealt.filter((u) => u.members.length > 1);
    expect(joined.map((u) => u.members)).toEqual([
      [
        { suite: "micro", id: "parse/0" },
        { suite: "cli", id: "cmd/3" },
      ],
    ]);
    // The same units dealt over another count are another split.
    expect(canonicalSplit(1, dealt)).not.toBe(parts[0]?.canonical);
  });

  it("changes the split's text when a machine lists other benchmarks", () => {
    const a = splitSuites(SUITES, LISTED, [], { index: 1, count: 2 });
    const b = splitSuites(SUITES, new Map([["micro", ids("parse", 39)]]), [], {
      index: 1,
      count: 2,
    });
    expect(a.canonical).not.toBe(b.canonical);
  });

  it("leaves a shard with nothing to run when there are fewer units than shards", () => {
    const parts = Array.from({ length: 3 }, (_, i) =>
      splitSuites([custom("only")], new Map(), [], { index: i + 1, count: 3 }),
    );
    expect(parts.filter((p) => p.plan.suites.length === 1)).toHaveLength(1);
    expect(parts.filter((p) => p.plan.suites.length === 0)).toHaveLength(2);
  });
});
