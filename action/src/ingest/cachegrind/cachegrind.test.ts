import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FIXTURES, inputErrorOf } from "../../../test/support/fixtures.ts";
import { guessFormat } from "../format-hint.ts";
import { type CachegrindOptions, parseCachegrind } from "./cachegrind.ts";

const DIR = `${FIXTURES}/cachegrind-3.19`;
const read = (name: string): string => readFileSync(`${DIR}/${name}`, "utf8");
const NO_SIM = read("cachegrind.out.true");
const SIM = read("cachegrind.out.true-sim");
const CALLGRIND = read("callgrind.out.true");
const OPTIONS: CachegrindOptions = { suite: undefined, name: undefined, guess: guessFormat };

function parse(
  text: string,
  options: Partial<CachegrindOptions> = {},
): ReturnType<typeof parseCachegrind> {
  return parseCachegrind(text, "cg.out", { ...OPTIONS, ...options });
}

describe("parseCachegrind on real Valgrind 3.19 output", () => {
  it("--cache-sim=no: one benchmark, named for the program, Ir as instructions", () => {
    const { benchmarks, toolVersion } = parse(NO_SIM);
    expect(toolVersion).toBeUndefined();
    expect(benchmarks).toEqual([
      {
        id: "true",
        suite: "cachegrind",
        source: "cachegrind",
        unit: "instructions",
        metric: "instructions",
        deterministic: true,
        direction: "smaller_is_better",
        sample_kind: "per_process",
        samples: [127679],
        estimates: { median: 127679 },
        metadata: { tool: "Cachegrind" },
      },
    ]);
  });

  it("--cache-sim=yes --branch-sim=yes: every other event is a secondary entry", () => {
    const { benchmarks } = parse(SIM, { suite: "tools" });
    expect(benchmarks.map((b) => [b.id, b.metric, b.unit, b.samples?.[0], b.secondary])).toEqual([
      ["true", "instructions", "instructions", 127679, undefined],
      ["true [i1mr]", "i1mr", "misses", 1073, true],
      ["true [ilmr]", "ilmr", "misses", 1072, true],
      ["true [dr]", "dr", "reads", 29390, true],
      ["true [d1mr]", "d1mr", "misses", 1153, true],
      ["true [dlmr]", "dlmr", "misses", 1017, true],
      ["true [dw]", "dw", "writes", 10265, true],
      ["true [d1mw]", "d1mw", "misses", 337, true],
      ["true [dlmw]", "dlmw", "misses", 311, true],
      ["true [bc]", "bc", "branches", 25321, true],
      ["true [bcm]", "bcm", "mispredictions", 3162, true],
      ["true [bi]", "bi", "branches", 279, true],
      ["true [bim]", "bim", "mispredictions", 150, true],
    ]);
    expect(
      benchmarks.every(
        (b) =>
          b.deterministic === true && b.suite === "tools" && b.estimates.median === b.samples?.[0],
      ),
    ).toBe(true);
  });

  it("Callgrind's format: the header's summary (equal to totals), and its creator as the tool version", () => {
    const { benchmarks, toolVersion } = parse(CALLGRIND);
    expect(toolVersion).toBe("callgrind-3.19.0");
    expect(benchmarks).toHaveLength(1);
    expect(benchmarks[0]).toMatchObject({
      id: "true",
      samples: [126559],
      metadata: { tool: "Callgrind" },
    });
    // Without its summary line, the totals at the end are read.
    expect(parse(CALLGRIND.replace("summary: 126559\n", "")).benchmarks[0]?.samples).toEqual([
      126559,
    ]);
  });

  it("--name names the benchmark and its secondary entries", () => {
    const { benchmarks } = parse(SIM, { name: "startup" });
    expect(benchmarks.map((b) => b.id).slice(0, 2)).toEqual(["startup", "startup [i1mr]"]);
  });

  it("the id is the program's base name, without its arguments", () => {
    const text = NO_SIM.replace(
      "cmd: /bin/true",
      "cmd: ./target/release/my-tool --input big.txt -n 3",
    );
    expect(parse(text).benchmarks[0]?.id).toBe("my-tool");
  });

  it("reads CRLF line ends", () => {
    expect(parse(NO_SIM.replaceAll("\n", "\r\n")).benchmarks[0]?.samples).toEqual([127679]);
  });
});

describe("parseCachegrind rejects a file it cannot read exactly, naming the line", () => {
  it.each<[string, string, string]>([
    [
      "no events line",
      NO_SIM.replace("events: Ir\n", ""),
      'cg.out: not a Cachegrind output file: no "events:" line (expected the file valgrind --tool=cachegrind --cachegrind-out-file=FILE writes)',
    ],
    [
      "no Ir event",
      SIM.replace("events: Ir ", "events: ").replace("summary: 127679 ", "summary: "),
      "cg.out: line 5: no Ir event (events: I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim); benchgate reads the instruction count",
    ],
    [
      "no summary line (a file cut short)",
      NO_SIM.replace("summary: 127679\n", ""),
      'cg.out: no "summary:" line (Cachegrind writes it last: is the file complete?)',
    ],
    [
      "fewer counts than events",
      SIM.replace("summary: 127679 1073 ", "summary: 127679 "),
      'cg.out: line 4254: "summary:" has 12 counts for 13 events (Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim)',
    ],
    [
      "a count that is not an integer",
      NO_SIM.replace("summary: 127679", "summary: 127679.5"),
      'cg.out: line 4254: "summary:" count "127679.5" is not a non-negative integer',
    ],
    [
      "a negative count",
      NO_SIM.replace("summary: 127679", "summary: -1"),
      'cg.out: line 4254: "summary:" count "-1" is not a non-negative integer',
    ],
    [
      "a count beyond 2^53 − 1",
      NO_SIM.replace("summary: 127679", "summary: 18446744073709551615"),
      "cg.out: line 4254: count 18446744073709551615 is larger than 9007199254740991: benchgate would lose its precision",
    ],
    [
      "two summary lines (two runs in one file)",
      `${NO_SIM}summary: 5\n`,
      'cg.out: line 4255: "summary:" given twice (also on line 4254); one run per file',
    ],
    [
      "an event named twice",
      NO_SIM.replace("events: Ir", "events: Ir Ir").replace("summary: 127679", "summary: 1 2"),
      "cg.out: line 5: event Ir is named twice",
    ],
    [
      "an event name that is no name",
      NO_SIM.replace("events: Ir", "events: Ir <b>").replace("summary: 127679", "summary: 1 2"),
      'cg.out: line 5: invalid event name "<b>"',
    ],
    [
      "totals that differ from the summary",
      CALLGRIND.replace("totals: 126559", "totals: 126560"),
      'cg.out: line 7870: "totals:" differs from "summary:" (line 18)',
    ],
    [
      "no cmd line and no --name",
      NO_SIM.replace("cmd: /bin/true\n", ""),
      'cg.out: no program on a "cmd:" line to name the benchmark; give --name NAME',
    ],
    [
      "a program name with a control character",
      NO_SIM.replace("cmd: /bin/true", "cmd: /bin/tr\u001bue"),
      'cg.out: line 4: the program\'s name "tr\\u001bue" is not a usable benchmark id (it holds a control character); give --name NAME',
    ],
  ])("%s", (_name, text, message) => {
    expect(inputErrorOf(() => parse(text))).toBe(message);
  });

  it("a JSON file says so, and what it looks like", () => {
    const summary = readFileSync(
      `${FIXTURES}/gungraun-0.20/run-1/tiny-gungraun/sum/sums/bench_sum.small/summary.json`,
      "utf8",
    );
    expect(inputErrorOf(() => parse(summary))).toBe(
      "cg.out: not a Cachegrind output file: this is JSON (it looks like a gungraun summary (use: ingest gungraun DIR))",
    );
    expect(inputErrorOf(() => parse("[1, 2"))).toBe(
      "cg.out: not a Cachegrind output file: this is JSON",
    );
  });
});
