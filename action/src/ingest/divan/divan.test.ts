import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../../test/support/fixtures.ts";
import { InputError } from "../../errors.ts";
import type { Benchmark } from "../../schemas/summary.gen.ts";
import { guessFormat } from "../format-hint.ts";
import { classify, parseTime } from "./divan-rows.ts";
import { parseDivan } from "./divan.ts";

// Real divan 0.1.21 console output of examples/divan-crate (fixtures/divan/README.md).
const text = (name: string): string =>
  readFileSync(`${FIXTURES}/divan/0.1.21/${name}.stdout.txt`, "utf8");
const lines = (name: string): string[] => text(name).split("\n");

function parse(input: string, suite?: string): Benchmark[] {
  return parseDivan(input, "out.txt", { suite, guess: guessFormat });
}

function problem(input: string): string {
  try {
    parse(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).describe();
  }
  throw new Error("parsed");
}

/** The first line of `name` that contains `part`, exactly as divan printed it. */
function lineWith(name: string, part: string): string {
  const found = lines(name).find((l) => l.includes(part));
  if (found === undefined) throw new Error(`no line with ${part} in ${name}`);
  return found;
}

describe("parseDivan on real divan 0.1.21 output", () => {
  it("one benchmark per leaf, keyed by its full path; groups and benches that did not run are not", () => {
    // `├─ ignored (ignored)` and `│  ├─ 1` (only_large registered no function for 1) ran nothing.
    expect(lines("shapes")[2]).toMatch(/^├─ ignored +\(ignored\) +│ +│/);
    expect(lines("shapes")[4]).toMatch(/^│ {2}├─ 1 +$/);
    expect(parse(text("shapes")).map((b) => b.id)).toEqual([
      "shapes/add",
      "shapes/only_large/64",
      "shapes/sum_to/10",
      "shapes/sum_to/1000",
      "shapes/sum_to/100000",
      "shapes/checksum/fletcher16/64",
      "shapes/checksum/fletcher16/65536",
      "shapes/checksum/parse_csv",
      "shapes/nested/contended/t=1",
      "shapes/nested/contended/t=2",
      "shapes/nested/sorting/sorted/u8/100",
      "shapes/nested/sorting/sorted/u8/10000",
      "shapes/nested/sorting/sorted/u64/100",
      "shapes/nested/sorting/sorted/u64/10000",
      "shapes/waits/one_second",
      "shapes/waits/two_millis",
    ]);
  });

  it("reads the four times in ns and the counts, from ns to s", () => {
    const byId = new Map(parse(text("shapes"), "bench").map((b) => [b.id, b]));
    // `├─ add  0.342 ns │ 0.398 ns │ 0.343 ns │ 0.344 ns │ 100 │ 409600` and its neighbours:
    // the expected values are the printed ones, read from the fixture's own line.
    const cells = (part: string): string[] =>
      lineWith("shapes", part)
        .split("│")
        .slice(-6)
        .map((c) => c.trim());
    const add = cells("├─ add ");
    const firstTime = lineWith("shapes", "├─ add ").match(/(\d+(?:\.\d+)?) ns/)?.[1];
    expect(byId.get("shapes/add")).toEqual({
      id: "shapes/add",
      suite: "bench",
      source: "divan",
      unit: "ns",
      direction: "smaller_is_better",
      sample_kind: "per_iteration",
      estimates: {
        median: Number(add[2]?.replace(" ns", "")),
        mean: Number(add[3]?.replace(" ns", "")),
        min: Number(firstTime),
        max: Number(add[1]?.replace(" ns", "")),
      },
      metadata: { samples: Number(add[4]), iters: Number(add[5]) },
    });
    // µs, ms and s columns scale by exact powers of ten.
    const sumTo = cells("╰─ 100000");
    expect(sumTo[2]).toMatch(/ µs$/);
    expect(byId.get("shapes/sum_to/100000")?.estimates.median).toBe(
      Number(`${sumTo[2]?.replace(" µs", "")}e3`),
    );
    const millis = cells("two_millis");
    expect(millis[2]).toMatch(/ ms$/);
    expect(byId.get("shapes/waits/two_millis")?.estimates.median).toBe(
      Number(`${millis[2]?.replace(" ms", "")}e6`),
    );
    const second = byId.get("shapes/waits/one_second");
    expect(lineWith("shapes", "one_second")).toMatch(/1\.05 s +│ 1\.05 s/);
    expect(second?.estimates.median).toBe(1.05e9);
    expect(second?.metadata).toEqual({ samples: 3, iters: 3 });
  });

  it("keeps each throughput row's median rate beside its leaf, in decimal or binary units", () => {
    const decimal = new Map(parse(text("shapes")).map((b) => [b.id, b.metadata]));
    expect(decimal.get("shapes/checksum/fletcher16/64")?.["throughput_bytes"]).toMatch(
      /^\d+(\.\d+)? MB\/s$/,
    );
    expect(decimal.get("shapes/checksum/parse_csv")?.["throughput_items"]).toMatch(
      /^\d+(\.\d+)? Mitem\/s$/,
    );
    expect(decimal.get("shapes/add")).not.toHaveProperty("throughput_bytes");
    const binary = parse(text("binary-filtered"));
    expect(binary.map((b) => [b.id, b.metadata?.["throughput_bytes"]])).toEqual([
      ["shapes/checksum/fletcher16/64", "365.3 MiB/s"],
      ["shapes/checksum/fletcher16/65536", "351.3 MiB/s"],
      ["shapes/checksum/parse_csv", undefined],
    ]);
  });

  it("skips the allocation profiler's rows under a leaf", () => {
    const allocs = parse(text("allocs"));
    expect(allocs.map((b) => [b.id, b.estimates.median])).toEqual([
      ["allocs/collect/16", 15.11],
      ["allocs/collect/4096", 337.5],
      ["allocs/no_alloc", 21.19],
      ["allocs/push_grow", 769.3],
    ]);
  });

  it("reads every tree of an output with several, each keyed by its own root", () => {
    const both = `${text("allocs")}${text("binary-filtered")}`;
    const ids = parse(both).map((b) => b.id);
    expect(ids).toHaveLength(7);
    expect(ids[0]).toBe("allocs/collect/16");
    expect(ids[6]).toBe("shapes/checksum/parse_csv");
  });

  it("classifies every line of the captured runs", () => {
    for (const name of ["shapes", "allocs", "binary-filtered"])
      for (const line of lines(name)) expect(classify(line).shape, line).not.toBe("unknown");
  });
});

describe("parseDivan refuses what it cannot read, naming the line", () => {
  it("a listing (--list prints the tree without columns)", () => {
    expect(problem(text("list"))).toBe(
      "out.txt: line 1: not divan's table: a run's tree starts with its name and the headings fastest … iters (divan --list and --test print the tree without them): \"shapes\"",
    );
  });

  it("empty output (a filter that matched nothing)", () => {
    expect(text("no-match")).toBe("");
    expect(problem(text("no-match"))).toBe(
      "out.txt: divan printed nothing: no benchmark ran (does the filter match any?)",
    );
  });

  it("a line the bench printed on stdout in the middle of the table", () => {
    const input = lines("shapes");
    input.splice(3, 0, "hello from the bench");
    expect(problem(input.join("\n"))).toMatch(/^out\.txt: line 4: not divan's table: .*"hello/);
    // A leaf cut after some of its columns is not an empty leaf.
    const add = lineWith("shapes", "├─ add ");
    const cut = add.slice(0, add.indexOf("│", add.indexOf("│") + 1));
    expect(problem(text("shapes").replace(add, cut))).toMatch(
      /^out\.txt: line 2: a tree line without divan's six columns/,
    );
  });

  it("an unknown time unit, a missing column, a bad count", () => {
    const add = lineWith("shapes", "├─ add ");
    const swap = (from: RegExp, to: string): string =>
      text("shapes").replace(add, add.replace(from, to));
    expect(problem(swap(/ ns /, " xs "))).toMatch(
      /^out\.txt: line 2: fastest "[\d.]+ xs" is not a time divan prints/,
    );
    expect(problem(swap(/│ \d+ *│/, "│"))).toMatch(
      /^out\.txt: line 2: a tree line without divan's six columns/,
    );
    expect(problem(swap(/│ \d+$/, "│ 0"))).toMatch(
      /^out\.txt: line 2: samples .* must be positive integers/,
    );
  });

  it("times out of order, which a misread column would give", () => {
    const add = lineWith("shapes", "├─ add ");
    // Swap the fastest and slowest values: slowest then precedes the median.
    const flipped = add.replace(/(\S+ ns)( +│ )(\S+ ns)/, "$3$2$1");
    expect(flipped).not.toBe(add);
    expect(problem(text("shapes").replace(add, flipped))).toMatch(
      /^out\.txt: line 2: fastest, median, mean and slowest are out of order/,
    );
  });

  it("a row nested deeper than its parent, a tree line before any tree, a throughput row alone", () => {
    const input = lines("shapes");
    expect(problem(input.slice(1).join("\n"))).toMatch(
      /^out\.txt: line 1: a tree line before any tree's first line/,
    );
    const deeper = [input[0], `│  ${input[1] as string}`].join("\n");
    expect(problem(deeper)).toMatch(/^out\.txt: line 2: nested 1 levels deeper than its parent/);
    const rate = lineWith("shapes", "MB/s");
    expect(problem([input[0], input[3], rate].join("\n"))).toMatch(
      /^out\.txt: line 3: a throughput row that follows no benchmark's times/,
    );
  });

  it("the same path twice", () => {
    const shapes = text("shapes");
    expect(problem(`${shapes}${shapes}`)).toMatch(/duplicate benchmark id "shapes\/add"/);
  });

  it("JSON, with what it looks like", () => {
    const criterion = readFileSync(`${FIXTURES}/hyperfine-1.15/basic.json`, "utf8");
    expect(problem(criterion)).toMatch(
      /^out\.txt: not divan's console output: this is JSON \(it looks like hyperfine/,
    );
  });
});

describe("parseTime", () => {
  it.each([
    ["0.336 ns", 0.336],
    ["5 ns", 5],
    ["24.46 µs", 24460],
    ["2.087 ms", 2087000],
    ["1.05 s", 1.05e9],
    ["1.5 m", 90e9],
    ["2 h", 7200e9],
    ["3 d", 3 * 86_400e9],
    ["1.5 ps", 0.0015],
  ])("%s is %d ns", (input, ns) => {
    expect(parseTime(input)).toBe(ns);
  });

  it.each(["1.05s", "1.05 us", "1.05 μs", "-1 ns", "1e3 ns", "ns"])("refuses %s", (input) => {
    expect(parseTime(input)).toBeUndefined();
  });
});
