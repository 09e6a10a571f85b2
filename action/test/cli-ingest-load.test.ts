// `benchgate ingest oha|k6|vegeta` as a user runs it, on the real load-generator output in
// fixtures/load/ (README.md there): one endpoint's entries out, and exit 2 with one line for
// every file it cannot read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expectInputError, runCli, ROOT } from "./support/cli.ts";
import { validateSummary } from "../src/schemas/validate-document.ts";
import { MAX_LOAD_FILE_BYTES } from "../src/ingest/load-entries.ts";

const LOAD = path.join(ROOT, "action/test/fixtures/load");
const FIX = path.join(ROOT, "action/test/fixtures");
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-ingest-load-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ALL = ["req/s", "p50", "p95", "p99", "p99.9", "errors"];

describe("benchgate ingest oha|k6|vegeta on real output", () => {
  it.each([
    ["oha", "oha/errors.json", ALL],
    ["oha", "oha/refused.json", ["req/s", "errors"]],
    ["k6", "k6/errors.json", ALL],
    ["vegeta", "vegeta/errors.json", ["req/s", "p50", "p95", "p99", "errors"]],
  ])("ingest %s %s --name api", (kind, file, metrics) => {
    const out = path.join(dir, `${kind}-${path.basename(file)}`);
    const r = runCli(["ingest", kind, path.join(LOAD, file), "--name", "api", "--side", "head"]);
    expect(r.status, r.stderr).toBe(0);
    writeFileSync(out, r.stdout);
    const summary = validateSummary(JSON.parse(readFileSync(out, "utf8")), out);
    expect(summary.side).toBe("head");
    expect(summary.benchmarks.map((b) => b.id)).toEqual(metrics.map((m) => `api ${m}`));
    expect(summary.benchmarks.every((b) => b.source === kind && b.suite === kind)).toBe(true);
    const errors = summary.benchmarks.find((b) => b.id === "api errors");
    expect(errors).toMatchObject({ unit: "%", metric: "error_rate", secondary: true });
    expect(runCli(["validate", out]).status).toBe(0);
  });

  it('names the endpoint "load" without --name', () => {
    const r = runCli(["ingest", "vegeta", path.join(LOAD, "vegeta/normal.json")]);
    expect(r.status, r.stderr).toBe(0);
    const summary = validateSummary(JSON.parse(r.stdout), "stdout");
    expect(summary.benchmarks[0]).toMatchObject({
      id: "load req/s",
      unit: "req/s",
      direction: "bigger_is_better",
    });
  });

  it("lists the three kinds in its help, each with --name", () => {
    const help = runCli(["ingest", "--help"]);
    expect(help.status).toBe(0);
    for (const kind of ["oha", "k6", "vegeta"])
      expect(help.stdout).toMatch(new RegExp(`^ {2}${kind} FILE \\[--name NAME\\] {3,}\\S`, "m"));
    // --name once; what it names for the load tools on one line of its own, below it.
    expect(help.stdout).toMatch(
      /^ {2}--name NAME {3,}cachegrind: .*\n {3,}oha, k6, vegeta: the endpoint's name/m,
    );
  });
});

describe("benchgate ingest oha|k6|vegeta: a file it cannot read exits 2 with one line", () => {
  it.each([
    [
      "a hyperfine export given as oha",
      ["oha", path.join(FIX, "hyperfine-1.15/basic.json")],
      /basic\.json: not an oha --output-format json file: missing "summary" \(it looks like hyperfine --export-json output \(use: ingest hyperfine\)\)$/,
    ],
    [
      "a k6 export given as oha",
      ["oha", path.join(LOAD, "k6/normal.json")],
      /normal\.json: not an oha --output-format json file: missing "summary" \(it looks like k6 --summary-export output \(use: ingest k6\)\)$/,
    ],
    [
      "an oha file given as vegeta",
      ["vegeta", path.join(LOAD, "oha/normal.json")],
      /\(it looks like oha --output-format json output \(use: ingest oha\)\)$/,
    ],
    [
      "a text file given as oha",
      ["oha", path.join(FIX, "cachegrind-3.19/cachegrind.out.true")],
      /cachegrind\.out\.true: invalid JSON \(Unexpected token/,
    ],
    [
      "a k6 export without p(99)",
      ["k6", path.join(LOAD, "k6/default-stats.json")],
      /default-stats\.json: \/metrics\/http_req_duration\{expected_response:true\}: missing "p\(99\)": .*--summary-trend-stats/,
    ],
    [
      "an empty --name",
      ["oha", path.join(LOAD, "oha/normal.json"), "--name", " "],
      /invalid benchmark name " ": it is empty/,
    ],
  ])("%s", (name, args, message) => {
    const out = path.join(dir, `never-${name.replace(/\W+/g, "-")}.json`);
    expect(expectInputError(runCli(["ingest", ...args, "-o", out]))).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it("a file over the size cap, and a file with bad numbers", () => {
    const big = path.join(dir, "big.json");
    const real = readFileSync(path.join(LOAD, "oha/normal.json"), "utf8");
    writeFileSync(big, real + " ".repeat(MAX_LOAD_FILE_BYTES + 1 - real.length));
    expect(expectInputError(runCli(["ingest", "oha", big]))).toBe(
      `benchgate: error: ${big}: file is too large (${MAX_LOAD_FILE_BYTES + 1} bytes, limit ${MAX_LOAD_FILE_BYTES})`,
    );
    const negative = path.join(dir, "negative.json");
    writeFileSync(negative, real.replace('"200": 22343', '"200": -22343'));
    expect(expectInputError(runCli(["ingest", "oha", negative]))).toBe(
      `benchgate: error: ${negative}: /statusCodeDistribution/200: must not be negative (found -22343)`,
    );
  });
});
