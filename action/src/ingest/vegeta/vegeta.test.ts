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
import { vegetaFormat } from "./vegeta-format.ts";
import { parseVegeta } from "./vegeta.ts";

// Real vegeta v12.13.0 reports (action/test/fixtures/load/README.md); vegeta writes ns.
const text = (name: string): string => readFileSync(`${FIXTURES}/load/vegeta/${name}.json`, "utf8");
const json = (name: string): Record<string, unknown> =>
  JSON.parse(text(name)) as Record<string, unknown>;
/** Another tool's real output, under fixtures/. */
const fixture = (file: string): unknown =>
  JSON.parse(readFileSync(`${FIXTURES}/${file}`, "utf8")) as unknown;
const OPTIONS: LoadFileOptions = { suite: undefined, name: undefined, guess: guessFormat };

function parse(data: unknown, options: Partial<LoadFileOptions> = {}): Benchmark[] {
  return parseVegeta(data, "vegeta.json", { ...OPTIONS, ...options });
}

describe("parseVegeta on real vegeta v12.13.0 output", () => {
  it("a clean run at 200/s: every entry but p99.9, which vegeta does not report", () => {
    // duration 1994692336 ns + wait 423351 ns; status_codes {"200": 400}
    const seconds = (1994692336 + 423351) / 1e9;
    const common = { suite: "vegeta", source: "vegeta" } as const;
    const ns = { ...common, unit: "ns", direction: "smaller_is_better" } as const;
    expect(parse(json("normal"))).toEqual([
      {
        ...common,
        id: "load req/s",
        unit: "req/s",
        direction: "bigger_is_better",
        estimates: { median: 400 / seconds },
        metadata: { requests: 400, successes: 400, errors: 0, non_2xx: 0, duration_s: seconds },
      },
      { ...ns, id: "load p50", estimates: { median: 322608 } },
      { ...ns, id: "load p95", estimates: { median: 581611 }, metric: "p95", secondary: true },
      { ...ns, id: "load p99", estimates: { median: 1463653 } },
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

  it("a server that answers 503 and then dies: status 0 is a transport error", () => {
    // status_codes {"0": 100, "200": 225, "503": 75}
    const data = json("errors");
    const seconds = (1995640505 + 225738) / 1e9;
    const entries = parse(data, { name: "api", suite: "load" });
    expect(entries.map((b) => [b.id, b.suite, b.estimates.median])).toEqual([
      ["api req/s", "load", 225 / seconds],
      ["api p50", "load", 306770],
      ["api p95", "load", 581789],
      ["api p99", "load", 1489405],
      ["api errors", "load", 43.75],
    ]);
    expect(entries[0]?.metadata).toEqual({
      requests: 400,
      successes: 225,
      errors: 100,
      non_2xx: 75,
      duration_s: seconds,
    });
    // With no 3xx in the run, req/s is vegeta's own throughput.
    expect(entries[0]?.estimates.median).toBeCloseTo(data["throughput"] as number, 9);
  });

  it("every request refused: no latency entries, 100 % errors", () => {
    const entries = parse(json("refused"));
    expect(entries.map((b) => [b.id, b.estimates.median])).toEqual([
      ["load req/s", 0],
      ["load errors", 100],
    ]);
    expect(entries[0]?.metadata).toMatchObject({ requests: 100, errors: 100, successes: 0 });
  });

  it("a 3xx response is not a success here, though vegeta counts it as one", () => {
    const data = json("normal");
    data["status_codes"] = { "200": 300, "302": 100 };
    const entries = parse(data);
    expect(entries.at(-1)?.estimates.median).toBe(25);
    expect(entries[0]?.metadata).toMatchObject({ successes: 300, non_2xx: 100 });
  });

  it("the kind parses the file with --name and is recognized by its marker", () => {
    const { benchmarks } = vegetaFormat.parse(json("normal"), "vegeta.json", {
      suite: undefined,
      name: "health",
      guess: guessFormat,
    });
    expect(benchmarks.map((b) => b.id)).toEqual([
      "health req/s",
      "health p50",
      "health p95",
      "health p99",
      "health errors",
    ]);
    expect(guessFormat(json("errors"))).toBe(
      "vegeta report -type=json output (use: ingest vegeta)",
    );
  });
});

describe("parseVegeta rejects what vegeta does not write", () => {
  const edit = (change: (d: Record<string, unknown>) => void): unknown => {
    const data = json("errors");
    change(data);
    return data;
  };
  const latencies = (d: Record<string, unknown>): Record<string, unknown> =>
    d["latencies"] as Record<string, unknown>;

  it.each<[string, () => unknown, string]>([
    [
      "a k6 export",
      () => fixture("load/k6/errors.json"),
      'vegeta.json: not a vegeta report -type=json file: missing "latencies" (it looks like k6 --summary-export output (use: ingest k6))',
    ],
    [
      "a text report's numbers in a list",
      () => [json("normal")],
      "vegeta.json: expected a vegeta report -type=json object, found an array",
    ],
    [
      "status counts that do not add up",
      () => edit((d) => (d["requests"] = 401)),
      'vegeta.json: /status_codes: counts 400 requests, "requests" says 401',
    ],
    [
      "a status that is not one",
      () => edit((d) => (d["status_codes"] = { "200": 325, "-1": 75 })),
      'vegeta.json: /status_codes/-1: "-1" is not an HTTP status code (or "0")',
    ],
    [
      "a missing percentile",
      () => edit((d) => delete latencies(d)["99th"]),
      'vegeta.json: /latencies: missing "99th"',
    ],
    [
      "a negative latency",
      () => edit((d) => (latencies(d)["50th"] = -306770)),
      "vegeta.json: /latencies/50th: must not be negative (found -306770)",
    ],
    [
      "a latency as text",
      () => edit((d) => (latencies(d)["95th"] = "581.789µs")),
      "vegeta.json: /latencies/95th: expected a number, found a string",
    ],
    [
      "percentiles out of order",
      () => edit((d) => (latencies(d)["95th"] = 2000000)),
      "vegeta.json: /latencies/99th: p99 (1489405 ns) is below p95 (2000000 ns)",
    ],
    [
      "a fractional request count",
      () => edit((d) => (d["requests"] = 400.5)),
      "vegeta.json: /requests: expected a whole number of requests, found 400.5",
    ],
    [
      "an empty attack",
      () => edit((d) => ((d["requests"] = 0), (d["status_codes"] = {}))),
      "vegeta.json: the run sent no request: there is no rate or latency to report",
    ],
  ])("%s", (_name, data, message) => {
    expect(inputErrorOf(() => parse(data()))).toBe(message);
  });

  it("an over-size file is refused before it is parsed", async () => {
    const real = text("normal");
    const padded = real + " ".repeat(MAX_LOAD_FILE_BYTES + 1 - real.length);
    expect(
      await asyncInputErrorOf(() =>
        ingest("vegeta", "vegeta.json", { side: "head", round: 1 }, textReader(padded)),
      ),
    ).toBe(
      `vegeta.json: file is too large (${MAX_LOAD_FILE_BYTES + 1} characters, limit ${MAX_LOAD_FILE_BYTES})`,
    );
  });
});
