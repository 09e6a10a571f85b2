import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expectInputError, runCli, ROOT } from "./support/cli.ts";
import { validateSummary } from "../src/schemas/validate-document.ts";

const FIX = path.join(ROOT, "action/test/fixtures");
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-ingest-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ingestTo(args: string[]): { status: number | null; stderr: string; file: string } {
  const file = path.join(dir, `${args.join("-").replace(/\W+/g, "_")}.json`);
  const r = runCli(["ingest", ...args, "-o", file]);
  return { status: r.status, stderr: r.stderr, file };
}

describe("benchgate ingest (CLI) on real tool output", () => {
  it.each([
    "criterion-0.8.2",
    "criterion-0.5.1",
    "criterion-0.4.0",
    "criterion-0.3.6",
    "criterion-0.3.2",
  ])("%s: one entry per benchmark keyed by full_id, with per-iteration samples", (version) => {
    const tree = path.join(FIX, version);
    const { status, stderr, file } = ingestTo([
      "criterion",
      tree,
      "--baseline",
      "base",
      "--round",
      "2",
      "--side",
      "base",
    ]);
    expect(status, stderr).toBe(0);
    const summary = validateSummary(JSON.parse(readFileSync(file, "utf8")), file);
    expect(summary.round).toBe(2);
    const ids = summary.benchmarks.map((b) => b.id);
    expect(ids).toContain("fib 20");
    expect(ids).toContain("sort/unstable/1000");
    for (const b of summary.benchmarks) {
      expect(b.source).toBe("criterion");
      expect(b.unit).toBe("ns");
      expect(b.sample_kind).toBe("per_iteration");
      expect(b.samples!.length).toBeGreaterThanOrEqual(10);
    }
    expect(runCli(["validate", file]).status).toBe(0);
  });

  it("keeps hostile full_ids as Criterion wrote them, not the sanitized directory names", () => {
    const { status, file } = ingestTo([
      "criterion",
      path.join(FIX, "criterion-0.8.2"),
      "--baseline",
      "head",
    ]);
    expect(status).toBe(0);
    const ids = validateSummary(JSON.parse(readFileSync(file, "utf8")), file).benchmarks.map(
      (b) => b.id,
    );
    expect(ids).toContain("evil|name `tick` <b>x</b> @someone #12");
  });

  it.each([
    ["hyperfine", "hyperfine-1.15/basic.json"],
    ["hyperfine", "hyperfine-1.15/param.json"],
    ["hyperfine", "hyperfine-1.15/single-run.json"],
    ["critcmp", "critcmp-0.1.8/base.json"],
    ["gab", "ingest/gab-bigger.json"],
    ["custom", "ingest/harness-archive.json"],
    ["custom", "ingest/summary.json"],
  ])("ingest %s %s gives a valid summary", (kind, file) => {
    const r = ingestTo([kind, path.join(FIX, file)]);
    expect(r.status, r.stderr).toBe(0);
    expect(
      validateSummary(JSON.parse(readFileSync(r.file, "utf8")), r.file).benchmarks.length,
    ).toBeGreaterThan(0);
  });

  it.each([
    "gungraun-0.20/run-1",
    "gungraun-0.20/run-2",
    "iai-callgrind-0.16/run-1",
    "iai-callgrind-0.16/run-2",
  ])("ingest gungraun %s: instructions per benchmark, the other counts secondary", (run) => {
    const { status, stderr, file } = ingestTo([
      "gungraun",
      path.join(FIX, run),
      "--side",
      "base",
      "--round",
      "3",
    ]);
    expect(status, stderr).toBe(0);
    const summary = validateSummary(JSON.parse(readFileSync(file, "utf8")), file);
    expect(summary).toMatchObject({ side: "base", round: 3 });
    const primaries = summary.benchmarks.filter((b) => b.secondary !== true);
    expect(primaries.map((b) => [b.id, b.metric, b.samples])).toEqual([
      ["sum::sums::bench_collect collect_1000", "instructions", [2275]],
      ["sum::sums::bench_sum large", "instructions", [90015]],
      ["sum::sums::bench_sum small", "instructions", [915]],
    ]);
    expect(summary.benchmarks).toHaveLength(26);
    expect(
      summary.benchmarks.every((b) => b.source === "gungraun" && b.deterministic === true),
    ).toBe(true);
    expect(runCli(["validate", file]).status).toBe(0);
  });

  it.each([
    ["cachegrind.out.true", [], "true", 1],
    ["cachegrind.out.true-sim", [], "true", 13],
    ["callgrind.out.true", ["--name", "true under callgrind"], "true under callgrind", 1],
  ])("ingest cachegrind %s %j", (name, extra, id, count) => {
    const { status, stderr, file } = ingestTo([
      "cachegrind",
      path.join(FIX, "cachegrind-3.19", name),
      ...extra,
    ]);
    expect(status, stderr).toBe(0);
    const summary = validateSummary(JSON.parse(readFileSync(file, "utf8")), file);
    expect(summary.benchmarks).toHaveLength(count);
    expect(summary.benchmarks[0]).toMatchObject({
      id,
      metric: "instructions",
      source: "cachegrind",
    });
    expect(runCli(["validate", file]).status).toBe(0);
  });

  it("lists both Valgrind kinds in its help, with --name", () => {
    const help = runCli(["ingest", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^ {2}gungraun DIR {3,}gungraun 0\.20 \/ iai-callgrind 0\.16/m);
    expect(help.stdout).toMatch(
      /^ {2}cachegrind FILE \[--name NAME\] {3,}a valgrind --tool=cachegrind/m,
    );
    expect(help.stdout).toMatch(/^ {2}--name NAME {3,}cachegrind: the benchmark's id/m);
  });

  it("writes to standard output without -o", () => {
    const r = runCli(["ingest", "hyperfine", path.join(FIX, "hyperfine-1.15/basic.json")]);
    expect(r.status).toBe(0);
    expect(validateSummary(JSON.parse(r.stdout), "stdout").benchmarks).toHaveLength(2);
  });
});

describe("benchgate ingest: bad input exits 2 with one line and writes nothing", () => {
  it.each([
    [
      "a Criterion tree without the requested baseline",
      ["criterion", "criterion-0.8.2", "--baseline", "nope"],
      /no benchmark has baseline "nope" \(found: .*base.*\)/,
    ],
    [
      "a hyperfine run with a failed command",
      ["hyperfine", "hyperfine-1.15/failing.json"],
      /failing\.json.*failed/,
    ],
    [
      "a hyperfine export given as critcmp",
      ["critcmp", "hyperfine-1.15/basic.json"],
      /basic\.json/,
    ],
    ["a missing directory", ["criterion", "no-such-dir", "--baseline", "base"], /no-such-dir/],
    ["criterion without --baseline", ["criterion", "criterion-0.8.2"], /needs --baseline/],
    ["an unknown kind", ["bencher", "x.json"], /unknown kind "bencher"/],
    [
      "gungraun with --baseline",
      ["gungraun", "gungraun-0.20/run-1", "--baseline", "base"],
      /run-1: ingest gungraun reads one run and takes no baseline name \(--baseline\)$/,
    ],
    [
      "gungraun on a folder without summaries",
      ["gungraun", "hyperfine-1.15"],
      /hyperfine-1\.15: no summary\.json found; .*--save-summary=json/,
    ],
    [
      "gungraun on a folder with two runs",
      ["gungraun", "gungraun-0.20"],
      /run-2\/.*summary\.json: \/module_path: duplicate benchmark id "sum::sums::bench_collect collect_1000": also given by .*run-1\//,
    ],
    [
      "a gungraun summary given as hyperfine",
      ["hyperfine", "gungraun-0.20/run-1/tiny-gungraun/sum/sums/bench_sum.small/summary.json"],
      /it looks like a gungraun summary \(use: ingest gungraun DIR\)\)$/,
    ],
    [
      "a JSON file given as cachegrind",
      ["cachegrind", "hyperfine-1.15/basic.json"],
      /basic\.json: not a Cachegrind output file: this is JSON \(it looks like hyperfine --export-json output/,
    ],
    [
      "--name for a kind that names its own benchmarks",
      ["hyperfine", "hyperfine-1.15/basic.json", "--name", "x"],
      /ingest hyperfine takes no benchmark name \(--name is for cachegrind, oha, k6, vegeta\)$/,
    ],
  ])("%s", (_name, args, message) => {
    const resolved = args.map((a, i) => (i === 1 ? path.join(FIX, a) : a));
    const out = path.join(dir, `never-${_name.replace(/\W+/g, "-")}.json`);
    expect(expectInputError(runCli(["ingest", ...resolved, "-o", out]))).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });
});

describe("benchgate ingest criterion: a symlink in the tree is an error, never skipped", () => {
  it("exits 2 naming a symlinked baseline directory instead of dropping its benchmark", () => {
    // Before, the benchmark behind the link was left out without a word and the gate ran on the rest.
    const tree = path.join(dir, "linked-tree");
    cpSync(path.join(FIX, "criterion-0.8.2"), tree, { recursive: true });
    const baseline = path.join(tree, "fib 20", "base");
    renameSync(baseline, path.join(dir, "linked-base"));
    symlinkSync(path.join(dir, "linked-base"), baseline);
    const out = path.join(dir, "never-linked.json");
    const line = expectInputError(
      runCli(["ingest", "criterion", tree, "--baseline", "base", "-o", out]),
    );
    expect(line).toBe(
      `benchgate: error: ${baseline}: is a symbolic link or special file; a Criterion tree must hold only regular files and directories`,
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe("benchgate ingest gungraun and cachegrind: hostile inputs exit 2 naming the file", () => {
  it("a symlinked summary.json in a gungraun folder is an error, never followed", () => {
    const home = path.join(dir, "gungraun-linked");
    cpSync(path.join(FIX, "gungraun-0.20/run-1"), home, { recursive: true });
    const summary = path.join(home, "tiny-gungraun/sum/sums/bench_sum.large/summary.json");
    renameSync(summary, path.join(dir, "gungraun-outside.json"));
    symlinkSync(path.join(dir, "gungraun-outside.json"), summary);
    const out = path.join(dir, "never-gungraun-linked.json");
    expect(expectInputError(runCli(["ingest", "gungraun", home, "-o", out]))).toBe(
      `benchgate: error: ${summary}: is a symbolic link or special file; a gungraun folder must hold only regular files and directories`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("a summary version benchgate does not know", () => {
    const home = path.join(dir, "gungraun-v8");
    cpSync(path.join(FIX, "gungraun-0.20/run-1"), home, { recursive: true });
    const summary = path.join(home, "tiny-gungraun/sum/sums/bench_sum.small/summary.json");
    writeFileSync(summary, readFileSync(summary, "utf8").replace('"version":"7"', '"version":"8"'));
    const out = path.join(dir, "never-gungraun-v8.json");
    expect(expectInputError(runCli(["ingest", "gungraun", home, "-o", out]))).toBe(
      `benchgate: error: ${summary}: /version: summary version "8" is not supported (supported: "7" (gungraun 0.20) and "6" (iai-callgrind 0.16))`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("a cachegrind file whose summary has a count too few", () => {
    const file = path.join(dir, "cachegrind.out.cut");
    writeFileSync(
      file,
      readFileSync(path.join(FIX, "cachegrind-3.19/cachegrind.out.true-sim"), "utf8").replace(
        / 150\n$/,
        "\n",
      ),
    );
    const out = path.join(dir, "never-cachegrind-cut.json");
    expect(expectInputError(runCli(["ingest", "cachegrind", file, "-o", out]))).toBe(
      `benchgate: error: ${file}: line 4254: "summary:" has 12 counts for 13 events (Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim)`,
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe("benchgate ingest: a key given twice is refused in every format", () => {
  // Before, JSON.parse kept the last value without a word: `"p50": 1, "p50": 999` gave 999.
  it("exits 2 on the issue's harness summary, naming the file and the key", () => {
    const file = path.join(dir, "twice.json");
    writeFileSync(file, '{"unit":"ms","operations":[{"name":"a","p50":1,"p50":999}]}');
    const out = path.join(dir, "never-twice.json");
    expect(expectInputError(runCli(["ingest", "custom", file, "-o", out]))).toBe(
      `benchgate: error: ${file}: /operations/0/p50: duplicate key "p50" (an object may name each key once)`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    [
      "hyperfine",
      "hyperfine-1.15/basic.json",
      '"mean": ',
      '"mean": 1, "mean": ',
      "/results/0/mean",
    ],
    ["critcmp", "critcmp-0.1.8/base.json", '"baseline": ', '"baseline": "x", "baseline": ', ""],
    ["gab", "ingest/gab-bigger.json", '"value": ', '"value": 1, "value": ', "/0/value"],
    ["custom", "ingest/summary.json", '"round": ', '"round": 2, "round": ', "/round"],
    ["custom", "ingest/harness-archive.json", '"count": ', '"count": 1, "count": ', ""],
  ])("ingest %s %s with a repeated key", (kind, fixture, find, replace, pointer) => {
    const file = path.join(dir, `twice-${kind}-${path.basename(fixture)}`);
    writeFileSync(file, readFileSync(path.join(FIX, fixture), "utf8").replace(find, replace));
    const out = path.join(dir, `never-twice-${kind}-${path.basename(fixture)}`);
    const line = expectInputError(runCli(["ingest", kind, file, "-o", out]));
    const key = find.slice(1, find.indexOf('"', 1));
    expect(line).toContain(`${file}: ${pointer}`);
    expect(line).toMatch(new RegExp(`/${key}: duplicate key "${key}"`));
    expect(existsSync(out)).toBe(false);
  });

  it("ingest criterion with a repeated key in one estimates.json", () => {
    const tree = path.join(dir, "twice-tree");
    cpSync(path.join(FIX, "criterion-0.8.2"), tree, { recursive: true });
    const estimates = path.join(tree, "flat", "fnv1a", "65536", "base", "estimates.json");
    writeFileSync(
      estimates,
      readFileSync(estimates, "utf8").replace('{"mean":', '{"mean":{},"mean":'),
    );
    const out = path.join(dir, "never-twice-tree.json");
    expect(
      expectInputError(runCli(["ingest", "criterion", tree, "--baseline", "base", "-o", out])),
    ).toBe(
      `benchgate: error: ${estimates}: /mean: duplicate key "mean" (an object may name each key once)`,
    );
    expect(existsSync(out)).toBe(false);
  });
});
