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
import { k6Format } from "./k6-format.ts";
import { K6_SUCCESS_DURATION, parseK6 } from "./k6.ts";

// Real k6 v1.8.1 --summary-export files (action/test/fixtures/load/README.md); k6 writes ms.
const text = (name: string): string => readFileSync(`${FIXTURES}/load/k6/${name}.json`, "utf8");
type Metrics = Record<string, Record<string, unknown>>;
const json = (name: string): { metrics: Metrics } => JSON.parse(text(name)) as { metrics: Metrics };
const MS = 1e6;
/** Another tool's real output, under fixtures/. */
const fixture = (file: string): unknown =>
  JSON.parse(readFileSync(`${FIXTURES}/${file}`, "utf8")) as unknown;
const OPTIONS: LoadFileOptions = { suite: undefined, name: undefined, guess: guessFormat };

function parse(data: unknown, options: Partial<LoadFileOptions> = {}): Benchmark[] {
  return parseK6(data, "k6.json", { ...OPTIONS, ...options });
}

describe("parseK6 on real k6 v1.8.1 output", () => {
  it("a clean run: counts from http_reqs and http_req_failed, latency of the successes", () => {
    // http_reqs {count: 11563, rate: 5780.329772237611}; http_req_failed {passes: 0, fails: 11563}
    const duration = 11563 / 5780.329772237611;
    const common = { suite: "k6", source: "k6" } as const;
    const ns = { ...common, unit: "ns", direction: "smaller_is_better" } as const;
    expect(parse(json("normal"))).toEqual([
      {
        ...common,
        id: "load req/s",
        unit: "req/s",
        direction: "bigger_is_better",
        estimates: { median: 11563 / duration },
        metadata: { requests: 11563, successes: 11563, duration_s: duration },
      },
      { ...ns, id: "load p50", estimates: { median: 0.274381 * MS } },
      {
        ...ns,
        id: "load p95",
        estimates: { median: 0.5769939 * MS },
        metric: "p95",
        secondary: true,
      },
      { ...ns, id: "load p99", estimates: { median: 0.93547435999999 * MS } },
      {
        ...ns,
        id: "load p99.9",
        estimates: { median: 2.1650571460000023 * MS },
        metric: "p99_9",
        secondary: true,
      },
      {
        ...common,
        id: "load errors",
        unit: "%",
        direction: "smaller_is_better",
        estimates: { median: 0 },
        metric: "error_rate",
        secondary: true,
      },
    ]);
  });

  it("a server that answers 503 and then dies: the failed share, and the 2xx-only latency", () => {
    // passes (failed) 34076, fails (succeeded) 1499. http_req_duration has med 0: every
    // refused connection is timed as 0 ms there, so the expected_response trend is read.
    const data = json("errors");
    expect(data.metrics["http_req_duration"]?.["med"]).toBe(0);
    const duration = 35575 / 17768.19538875598;
    const entries = parse(data, { name: "api" });
    expect(entries.map((b) => [b.id, b.estimates.median])).toEqual([
      ["api req/s", 1499 / duration],
      ["api p50", 0.280612 * MS],
      ["api p95", 0.5827638999999998 * MS],
      ["api p99", 0.9346458999999988 * MS],
      ["api p99.9", 1.9121105320000065 * MS],
      ["api errors", (100 * 34076) / 35575],
    ]);
    // The export does not tell a 503 from a refused connection: no errors/non_2xx split.
    expect(entries[0]?.metadata).toEqual({
      requests: 35575,
      successes: 1499,
      duration_s: duration,
    });
  });

  it("every request refused: no successes, so no latency trend and no latency entries", () => {
    const data = json("refused");
    expect(data.metrics[K6_SUCCESS_DURATION]).toBeUndefined();
    expect(parse(data).map((b) => [b.id, b.estimates.median])).toEqual([
      ["load req/s", 0],
      ["load errors", 100],
    ]);
  });

  it("p(50) stands in for med; without p(99.9) there is no p99.9 entry", () => {
    const data = json("normal");
    const trend = data.metrics[K6_SUCCESS_DURATION] as Record<string, unknown>;
    trend["p(50)"] = trend["med"];
    delete trend["med"];
    delete trend["p(99.9)"];
    expect(parse(data).map((b) => b.id)).toEqual([
      "load req/s",
      "load p50",
      "load p95",
      "load p99",
      "load errors",
    ]);
  });

  it("the kind parses the file with --name and is recognized by its marker", () => {
    const { benchmarks } = k6Format.parse(json("errors"), "k6.json", {
      suite: undefined,
      name: "python/users",
      guess: guessFormat,
    });
    expect(benchmarks[0]).toMatchObject({ id: "python/users req/s", suite: "k6", source: "k6" });
    expect(guessFormat(json("refused"))).toBe("k6 --summary-export output (use: ingest k6)");
  });
});

describe("parseK6 rejects what it cannot read", () => {
  const edit = (change: (m: Metrics) => void): unknown => {
    const data = json("errors");
    change(data.metrics);
    return data;
  };

  it.each<[string, () => unknown, string]>([
    [
      "the default summaryTrendStats (no p(99)), as k6 exports it",
      () => json("default-stats"),
      `k6.json: /metrics/${K6_SUCCESS_DURATION}: missing "p(99)": k6 exports only the statistics summaryTrendStats names: run with --summary-trend-stats "med,p(95),p(99),p(99.9)" (or set options.summaryTrendStats in the script)`,
    ],
    [
      // oha 1.15+ writes a "metrics" object of its own
      "an oha file",
      () => fixture("load/oha/normal.json"),
      'k6.json: not a k6 --summary-export file: missing "root_group" (it looks like oha --output-format json output (use: ingest oha))',
    ],
    [
      "a vegeta report",
      () => fixture("load/vegeta/normal.json"),
      'k6.json: not a k6 --summary-export file: missing "metrics" (it looks like vegeta report -type=json output (use: ingest vegeta))',
    ],
    [
      "handleSummary's data",
      () =>
        edit((m) => {
          m["http_reqs"] = { type: "counter", contains: "default", values: m["http_reqs"] };
        }),
      "k6.json: /metrics/http_reqs: this is k6's handleSummary data (a metric's numbers under \"values\"); benchgate reads the file of k6 run --summary-export FILE",
    ],
    [
      "no HTTP request",
      () => edit((m) => delete m["http_reqs"]),
      'k6.json: /metrics: no "http_reqs" metric: the script made no HTTP request',
    ],
    [
      "no http_req_failed",
      () => edit((m) => delete m["http_req_failed"]),
      'k6.json: /metrics: no "http_req_failed" metric: k6 writes it unless the script turned its response callback off (http.setResponseCallback(null)); without it failures cannot be counted',
    ],
    [
      "failures that do not add up",
      () => edit((m) => ((m["http_req_failed"] as Record<string, unknown>)["passes"] = 34000)),
      "k6.json: /metrics/http_req_failed: counts 35499 requests (passes 34000 + fails 1499), http_reqs 35575: a request whose callback was turned off is counted in neither",
    ],
    [
      "a negative percentile",
      () => edit((m) => ((m[K6_SUCCESS_DURATION] as Record<string, unknown>)["p(95)"] = -1)),
      `k6.json: /metrics/${K6_SUCCESS_DURATION}/p(95): must not be negative (found -1)`,
    ],
    [
      "a percentile that is text",
      () => edit((m) => ((m[K6_SUCCESS_DURATION] as Record<string, unknown>)["med"] = "NaN")),
      `k6.json: /metrics/${K6_SUCCESS_DURATION}/med: expected a number, found a string`,
    ],
    [
      "no request",
      () => edit((m) => ((m["http_reqs"] as Record<string, unknown>)["count"] = 0)),
      "k6.json: /metrics/http_reqs/count: the run sent no request",
    ],
    [
      "a rate of zero",
      () => edit((m) => ((m["http_reqs"] as Record<string, unknown>)["rate"] = 0)),
      "k6.json: /metrics/http_reqs/rate: a rate of 0 for 35575 requests",
    ],
    [
      // Before, the rate went through and the summary failed on duration_s (3.5575e+304 s).
      "a rate far too small for the count",
      () => edit((m) => ((m["http_reqs"] as Record<string, unknown>)["rate"] = 1e-300)),
      "k6.json: /metrics/http_reqs/rate: a rate of 1e-300 req/s for 35575 requests means a run of 3.5575e+304 s, more than a year: not a rate k6 writes",
    ],
    [
      // 35575 / 5e-324 is Infinity: before, "the run lasted Infinity s".
      "the smallest rate a double holds",
      () => edit((m) => ((m["http_reqs"] as Record<string, unknown>)["rate"] = 5e-324)),
      "k6.json: /metrics/http_reqs/rate: a rate of 5e-324 req/s for 35575 requests means a run of Infinity s, more than a year: not a rate k6 writes",
    ],
  ])("%s", (_name, data, message) => {
    expect(inputErrorOf(() => parse(data()))).toBe(message);
  });

  it("an over-size file is refused before it is parsed", async () => {
    const real = text("normal");
    const padded = real + "\n".repeat(MAX_LOAD_FILE_BYTES + 1 - real.length);
    expect(
      await asyncInputErrorOf(() =>
        ingest("k6", "k6.json", { side: "head", round: 1 }, textReader(padded)),
      ),
    ).toBe(
      `k6.json: file is too large (${MAX_LOAD_FILE_BYTES + 1} characters, limit ${MAX_LOAD_FILE_BYTES})`,
    );
  });
});
