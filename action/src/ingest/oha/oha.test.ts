import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  FIXTURES,
  asyncInputErrorOf,
  inputErrorOf,
  textReader,
} from "../../../test/support/fixtures.ts";
import type { Benchmark } from "../../schemas/summary.gen.ts";
import { guessFormat } from "../format-hint.ts";
import { ingest } from "../index.ts";
import { type LoadFileOptions, MAX_LOAD_FILE_BYTES } from "../load-entries.ts";
import { ohaFormat } from "./oha-format.ts";
import { parseOha } from "./oha.ts";

// Real oha 1.16.0 output (action/test/fixtures/load/README.md); oha writes seconds.
const text = (name: string): string => readFileSync(`${FIXTURES}/load/oha/${name}.json`, "utf8");
const json = (name: string): Record<string, unknown> =>
  JSON.parse(text(name)) as Record<string, unknown>;
const S = 1e9;
/** Another tool's real output, under fixtures/. */
const fixture = (file: string): unknown =>
  JSON.parse(readFileSync(`${FIXTURES}/${file}`, "utf8")) as unknown;
const OPTIONS: LoadFileOptions = { suite: undefined, name: undefined, guess: guessFormat };

function parse(data: unknown, options: Partial<LoadFileOptions> = {}): Benchmark[] {
  return parseOha(data, "oha.json", { ...OPTIONS, ...options });
}

/** What every entry of one endpoint shares. */
const COMMON = { suite: "oha", source: "oha" } as const;

/** The five entries after req/s, from oha's percentiles (in s) and the error share. */
function latencyAndErrors(
  id: string,
  p: { p50: number; p95: number; p99: number; "p99.9": number },
  errorPercent: number,
): Benchmark[] {
  const ns = { ...COMMON, unit: "ns", direction: "smaller_is_better" } as const;
  return [
    { ...ns, id: `${id} p50`, estimates: { median: p.p50 * S } },
    { ...ns, id: `${id} p95`, estimates: { median: p.p95 * S }, metric: "p95", secondary: true },
    { ...ns, id: `${id} p99`, estimates: { median: p.p99 * S } },
    {
      ...ns,
      id: `${id} p99.9`,
      estimates: { median: p["p99.9"] * S },
      metric: "p99_9",
      secondary: true,
    },
    {
      ...COMMON,
      id: `${id} errors`,
      unit: "%",
      direction: "smaller_is_better",
      estimates: { median: errorPercent },
      metric: "error_rate",
      secondary: true,
    },
  ];
}

describe("parseOha on real oha 1.16.0 output", () => {
  it("a clean run: 2xx only; the 2 requests cancelled at the deadline are not counted", () => {
    // statusCodeDistribution {"200": 22343}, errorDistribution {"aborted due to deadline": 2}
    expect(parse(json("normal"))).toEqual([
      {
        ...COMMON,
        id: "load req/s",
        unit: "req/s",
        direction: "bigger_is_better",
        estimates: { median: 22343 / 2.001626127 },
        metadata: {
          requests: 22343,
          successes: 22343,
          errors: 0,
          non_2xx: 0,
          duration_s: 2.001626127,
        },
      },
      ...latencyAndErrors(
        "load",
        { p50: 0.000173957, p95: 0.000248515, p99: 0.000321524, "p99.9": 0.000631382 },
        0,
      ),
    ]);
  });

  it("a server that answers 503 and then dies: non-2xx and transport errors both fail", () => {
    // {"200": 1500, "503": 500}; refused 424973, "connection closed before message
    // completed" 1, "connection error" 1, and 2 cancelled at the deadline.
    const requests = 1500 + 500 + 424973 + 1 + 1;
    const entries = parse(json("errors"), { name: "api", suite: "load" });
    expect(entries[0]).toEqual({
      id: "api req/s",
      suite: "load",
      source: "oha",
      unit: "req/s",
      direction: "bigger_is_better",
      estimates: { median: 1500 / 2.001754426 },
      metadata: {
        requests,
        successes: 1500,
        errors: 424975,
        non_2xx: 500,
        duration_s: 2.001754426,
      },
    });
    expect(entries.slice(1)).toEqual(
      latencyAndErrors(
        "api",
        { p50: 0.000172555, p95: 0.000338845, p99: 0.000837806, "p99.9": 0.001525753 },
        (100 * (requests - 1500)) / requests,
      ).map((b) => ({ ...b, suite: "load" })),
    );
  });

  it("--stats-success-breakdown: the percentiles of the 2xx responses, not of every response", () => {
    const entries = parse(json("breakdown"));
    // latencyPercentilesSuccessful; latencyPercentiles (every response) has p50 0.00017613.
    expect(entries.slice(1)).toEqual(
      latencyAndErrors(
        "load",
        { p50: 0.000176194, p95: 0.000309908, p99: 0.000486537, "p99.9": 0.001173147 },
        (100 * 5316) / (15951 + 5316),
      ),
    );
    expect(entries[0]?.metadata).toEqual({
      requests: 21267,
      successes: 15951,
      errors: 0,
      non_2xx: 5316,
      duration_s: 2.002618439,
    });
  });

  it("-q 200 --latency-correction: read like any run (the file does not say how it ran)", () => {
    const data = json("fixed-rate");
    expect(parse(data)[0]?.metadata).toEqual({
      requests: 400,
      successes: 400,
      errors: 0,
      non_2xx: 0,
      duration_s: 2.001199286,
    });
    const entries = parse(data);
    expect(entries[0]?.estimates.median).toBe(400 / 2.001199286);
    expect(entries[1]).toMatchObject({ id: "load p50", estimates: { median: 0.00008542 * S } });
  });

  it("every request refused: no latency entries (oha writes null percentiles), 100 % errors", () => {
    const entries = parse(json("refused"));
    expect(entries.map((b) => [b.id, b.estimates.median])).toEqual([
      ["load req/s", 0],
      ["load errors", 100],
    ]);
    expect(entries[0]?.metadata).toEqual({
      requests: 237214,
      successes: 0,
      errors: 237214,
      non_2xx: 0,
      duration_s: 1.001578206,
    });
  });

  it("the kind parses the file with --name and --suite, and is recognized by its marker", () => {
    const { benchmarks } = ohaFormat.parse(json("normal"), "oha.json", {
      suite: "web",
      name: "rust/health",
      guess: guessFormat,
    });
    expect(benchmarks.map((b) => `${b.suite}: ${b.id}`)).toEqual([
      "web: rust/health req/s",
      "web: rust/health p50",
      "web: rust/health p95",
      "web: rust/health p99",
      "web: rust/health p99.9",
      "web: rust/health errors",
    ]);
    expect(guessFormat(json("refused"))).toBe("oha --output-format json output (use: ingest oha)");
  });
});

describe("parseOha rejects what oha does not write", () => {
  const edit = (change: (d: Record<string, Record<string, unknown>>) => void): unknown => {
    const data = json("errors") as Record<string, Record<string, unknown>>;
    change(data);
    return data;
  };

  it.each<[string, () => unknown, string]>([
    [
      "a list",
      () => [json("normal")],
      "oha.json: expected an oha --output-format json object, found an array",
    ],
    [
      "a hyperfine export",
      () => fixture("hyperfine-1.15/basic.json"),
      'oha.json: not an oha --output-format json file: missing "summary" (it looks like hyperfine --export-json output (use: ingest hyperfine))',
    ],
    [
      "a k6 export",
      () => fixture("load/k6/normal.json"),
      'oha.json: not an oha --output-format json file: missing "summary" (it looks like k6 --summary-export output (use: ingest k6))',
    ],
    [
      "a missing percentile",
      () => edit((d) => delete d["latencyPercentiles"]?.["p99"]),
      'oha.json: /latencyPercentiles: missing "p99" (oha writes p10 to p99.99)',
    ],
    [
      "a null percentile with 2xx responses",
      () => edit((d) => ((d["latencyPercentiles"] as Record<string, unknown>)["p50"] = null)),
      "oha.json: /latencyPercentiles/p50: expected a number, found null",
    ],
    [
      "a negative count",
      () => edit((d) => ((d["statusCodeDistribution"] as Record<string, unknown>)["503"] = -500)),
      "oha.json: /statusCodeDistribution/503: must not be negative (found -500)",
    ],
    [
      "a fractional count",
      () => edit((d) => ((d["errorDistribution"] as Record<string, unknown>)["timeout"] = 0.5)),
      "oha.json: /errorDistribution/timeout: expected a whole number of requests, found 0.5",
    ],
    [
      "a status that is not one",
      () => edit((d) => ((d["statusCodeDistribution"] as Record<string, unknown>)["2xx"] = 1)),
      'oha.json: /statusCodeDistribution/2xx: "2xx" is not an HTTP status code',
    ],
    [
      "percentiles out of order",
      () => edit((d) => ((d["latencyPercentiles"] as Record<string, unknown>)["p99"] = 0.0003)),
      "oha.json: /latencyPercentiles/p99: p99 (300000 ns) is below p95 (338845 ns)",
    ],
    [
      "a run of no time",
      () => edit((d) => ((d["summary"] as Record<string, unknown>)["total"] = 0)),
      "oha.json: the run lasted 0 s: no rate can be derived",
    ],
    [
      "a run longer than a year",
      () => edit((d) => ((d["summary"] as Record<string, unknown>)["total"] = 1e299)),
      "oha.json: the run lasted 1e+299 s, more than a year: not a load test's length",
    ],
    [
      "a run whose every request was cancelled at the deadline",
      () =>
        edit((d) => {
          d["statusCodeDistribution"] = {};
          d["errorDistribution"] = { "aborted due to deadline": 50 };
        }),
      "oha.json: /errorDistribution/aborted due to deadline: all 50 requests were still waiting for an answer when the run's time was up: none was answered, so there is no rate or latency to report",
    ],
  ])("%s", (_name, data, message) => {
    expect(inputErrorOf(() => parse(data()))).toBe(message);
  });

  it("an endpoint name that cannot be an id (a caller's, not --name, which ingest checks first)", () => {
    expect(inputErrorOf(() => parse(json("normal"), { name: "api\nhealth" }))).toBe(
      'oha.json: the endpoint\'s name "api\\nhealth" is not usable: it holds a control character',
    );
  });

  it("rejects in the text what JSON.parse would let through, and an over-size file", async () => {
    const read = (source: string): Promise<string> =>
      asyncInputErrorOf(() =>
        ingest("oha", "oha.json", { side: "head", round: 1 }, textReader(source)),
      );
    const real = text("normal");
    expect(await read(real.replace('"p99": 0.000321524', '"p99": 1e400'))).toBe(
      "oha.json: /latencyPercentiles/p99: number is out of range (Infinity)",
    );
    expect(await read(real.replace('"p10":', '"p50": 1, "p10":'))).toMatch(
      /^oha\.json: \/latencyPercentiles\/p50: duplicate key "p50"/,
    );
    expect(await read(real.replace('"metrics":', '"__proto__": {}, "metrics":'))).toMatch(
      /__proto__/,
    );
    const padded = real + " ".repeat(MAX_LOAD_FILE_BYTES + 1 - real.length);
    expect(await read(padded)).toBe(
      `oha.json: file is too large (${MAX_LOAD_FILE_BYTES + 1} characters, limit ${MAX_LOAD_FILE_BYTES})`,
    );
  });
});
