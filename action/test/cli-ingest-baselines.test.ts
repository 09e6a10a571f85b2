// `benchgate ingest criterion DIR --baselines GLOB --out-dir D`: every round of a run in one walk,
// on real trees: the recorded 5-round tiny-bench run (base-1…5, head-1…5) and the captured
// Criterion 0.8.2 tree (base, head, new).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expectInputError, runCli, ROOT } from "./support/cli.ts";
import { validateSummary } from "../src/schemas/validate-document.ts";

const RUN_TREE = path.join(ROOT, "bench/data/aa-tiny-bench-0.1.0/criterion");
const CAPTURED = path.join(ROOT, "action/test/fixtures/criterion-0.8.2");
const ROUNDS = [1, 2, 3, 4, 5];
const ALL = ["base", "head"].flatMap((side) => ROUNDS.map((r) => `${side}-${r}`));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-ingest-baselines-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("benchgate ingest criterion --baselines", () => {
  it("writes every round's summary, what --baseline NAME --side --round writes (on one line)", () => {
    const out = path.join(dir, "all");
    const r = runCli(["ingest", "criterion", RUN_TREE, "--baselines", "*", "--out-dir", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(ALL.map((b) => `${b}.json`));
    expect(r.stderr.trim().split("\n")).toEqual(
      ALL.map(
        (b) =>
          `wrote ${path.join(out, `${b}.json`)}: 11 benchmarks (criterion, side ${b.slice(0, 4)}, round ${b.slice(5)})`,
      ),
    );
    for (const baseline of ALL) {
      const [side, round] = baseline.split("-") as [string, string];
      const one = path.join(dir, `one-${baseline}.json`);
      const single = runCli([
        "ingest",
        "criterion",
        RUN_TREE,
        "--baseline",
        baseline,
        "--side",
        side,
        "--round",
        round,
        "-o",
        one,
      ]);
      expect(single.status, single.stderr).toBe(0);
      // The same document; --out-dir writes it on one line, -o indented.
      const written = readFileSync(path.join(out, `${baseline}.json`), "utf8");
      expect(written.trimEnd().split("\n")).toHaveLength(1);
      expect(JSON.parse(written)).toEqual(JSON.parse(readFileSync(one, "utf8")));
    }
    // The files are what compare takes: five rounds of each side.
    const list = (side: string): string[] => ROUNDS.map((r) => path.join(out, `${side}-${r}.json`));
    const compared = runCli(["compare", "--base", ...list("base"), "--head", ...list("head")]);
    expect([0, 1], compared.stderr).toContain(compared.status);
  });

  it("reads only the baselines the glob matches, and creates the output directory", () => {
    const out = path.join(dir, "nested", "heads");
    const r = runCli(["ingest", "criterion", RUN_TREE, "--baselines", "head-?", "--out-dir", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(ROUNDS.map((n) => `head-${n}.json`));
  });

  it("gives a baseline not named <side>-<round> its own name as side, round 1", () => {
    const out = path.join(dir, "captured");
    const r = runCli([
      "ingest",
      "criterion",
      CAPTURED,
      "--baselines",
      "*",
      "--out-dir",
      out,
      "--suite",
      "tiny",
    ]);
    expect(r.status, r.stderr).toBe(0);
    for (const name of ["base", "head", "new"]) {
      const file = path.join(out, `${name}.json`);
      const summary = validateSummary(JSON.parse(readFileSync(file, "utf8")), file);
      expect([summary.side, summary.round]).toEqual([name, 1]);
      expect(summary.benchmarks.every((b) => b.suite === "tiny")).toBe(true);
      expect(summary.benchmarks.every((b) => b.metadata?.["baseline"] === name)).toBe(true);
    }
  });
});

describe("benchgate ingest --baselines: bad usage and input exit 2 with one line, writing nothing", () => {
  const OUT = ["--out-dir", "OUT"];
  it.each([
    [
      "no baseline matching",
      ["criterion", RUN_TREE, "--baselines", "pr-*", ...OUT],
      `${RUN_TREE}: no baseline matches "pr-*" (found: ${ALL.slice().sort().join(", ")})`,
    ],
    [
      "-o with --baselines",
      ["criterion", RUN_TREE, "--baselines", "*", ...OUT, "-o", "x.json"],
      "-o/--output describes one summary; with --baselines each baseline's name gives its side and round (see --help)",
    ],
    [
      "--side with --baselines",
      ["criterion", RUN_TREE, "--baselines", "*", ...OUT, "--side", "base"],
      "--side describes one summary; with --baselines each baseline's name gives its side and round (see --help)",
    ],
    [
      "--commit with --baselines",
      ["criterion", RUN_TREE, "--baselines", "*", ...OUT, "--commit", "a".repeat(40)],
      "--commit describes one summary; with --baselines each baseline's name gives its side and round (see --help)",
    ],
    [
      "--baseline and --baselines",
      ["criterion", RUN_TREE, "--baselines", "*", "--baseline", "base-1", ...OUT],
      "give --baseline NAME (one baseline) or --baselines GLOB, not both",
    ],
    [
      "--baselines without --out-dir",
      ["criterion", RUN_TREE, "--baselines", "*"],
      "--baselines writes one file per baseline: it needs --out-dir DIR",
    ],
    [
      "--out-dir without --baselines",
      ["criterion", RUN_TREE, "--baseline", "base-1", ...OUT],
      "--out-dir is for --baselines GLOB; one summary goes to -o FILE",
    ],
    [
      "a kind without baselines",
      [
        "hyperfine",
        path.join(ROOT, "action/test/fixtures/hyperfine-1.15/basic.json"),
        "--baselines",
        "*",
        ...OUT,
      ],
      "ingest hyperfine reads no baselines; --baselines is for criterion",
    ],
    [
      "a pattern with a path in it",
      ["criterion", RUN_TREE, "--baselines", "../*", ...OUT],
      'invalid --baselines pattern "../*" (1–255 characters, no "/" or "\\"; * and ? are the wildcards)',
    ],
  ])("%s", (_name, args, message) => {
    const out = path.join(dir, `never-${_name.replace(/\W+/g, "-")}`);
    const argv = args.map((a) => (a === "OUT" ? out : a));
    expect(expectInputError(runCli(["ingest", ...argv]))).toBe(`benchgate: error: ${message}`);
    expect(existsSync(out)).toBe(false);
  });

  it("a matched baseline whose name cannot be a side label", () => {
    const tree = path.join(dir, "odd-name");
    cpSync(CAPTURED, tree, { recursive: true });
    for (const bench of ["fib 20", "sum_vec/1000"]) {
      renameSync(path.join(tree, bench, "head"), path.join(tree, bench, "pr head"));
    }
    const out = path.join(dir, "never-odd");
    const line = expectInputError(
      runCli(["ingest", "criterion", tree, "--baselines", "*", "--out-dir", out]),
    );
    expect(line).toBe(
      `benchgate: error: ${tree}: baseline "pr head" cannot name a side (1–64 letters, digits, ".", "_" or "-"); narrow --baselines to leave it out`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("two baselines that would be one side and round", () => {
    const tree = path.join(dir, "clash");
    cpSync(CAPTURED, tree, { recursive: true });
    cpSync(path.join(tree, "fib 20", "head"), path.join(tree, "fib 20", "head-1"), {
      recursive: true,
    });
    const out = path.join(dir, "never-clash");
    const line = expectInputError(
      runCli(["ingest", "criterion", tree, "--baselines", "head*", "--out-dir", out]),
    );
    expect(line).toBe(
      `benchgate: error: ${tree}: baselines "head" and "head-1" would both be side head, round 1; narrow --baselines to one of them`,
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe("benchgate compare --criterion", () => {
  it("decides on every base-N and head-N baseline of the tree, as ingest --out-dir + compare do", () => {
    const viaFiles = path.join(dir, "via-files");
    expect(
      runCli([
        "ingest",
        "criterion",
        RUN_TREE,
        "--baselines",
        "base-*,head-*",
        "--out-dir",
        viaFiles,
      ]).status,
    ).toBe(0);
    const files = (side: string): string[] =>
      ROUNDS.map((r) => path.join(viaFiles, `${side}-${r}.json`));
    const fromFiles = path.join(dir, "from-files.json");
    const fromTree = path.join(dir, "from-tree.json");
    const a = runCli([
      "compare",
      "--base",
      ...files("base"),
      "--head",
      ...files("head"),
      "--json",
      fromFiles,
      "--quiet",
    ]);
    const b = runCli(["compare", "--criterion", RUN_TREE, "--json", fromTree, "--quiet"]);
    expect(b.status, b.stderr).toBe(a.status);
    const report = (file: string): { benchmarks: unknown[]; settings: { rounds: number } } =>
      JSON.parse(readFileSync(file, "utf8")) as {
        benchmarks: unknown[];
        settings: { rounds: number };
      };
    expect(report(fromTree).settings.rounds).toBe(ROUNDS.length);
    expect(report(fromTree).benchmarks).toEqual(report(fromFiles).benchmarks);
  });

  it("refuses summaries and a tree together, and a tree without both sides", () => {
    expect(
      expectInputError(runCli(["compare", "--criterion", RUN_TREE, "--base", "x.json"])),
    ).toMatch(/give --criterion DIR or --base\/--head summaries, not both/);
    const baseOnly = path.join(dir, "base-only");
    cpSync(CAPTURED, baseOnly, { recursive: true });
    expect(expectInputError(runCli(["compare", "--criterion", baseOnly]))).toMatch(
      /no baseline matches "base-\*,head-\*"|compare needs both sides/,
    );
  });
});

describe("benchgate ingest --help", () => {
  it("documents --baselines and --out-dir", () => {
    const help = runCli(["ingest", "--help"]).stdout;
    expect(help).toMatch(
      /^ {2}--baselines GLOB {6}read every baseline whose directory name matches GLOB$/m,
    );
    expect(help).toMatch(
      /^ {2}--out-dir DIR {9}write one summary per baseline to DIR\/<baseline>\.json$/m,
    );
    expect(help).toMatch(/^ {7}benchgate ingest criterion DIR --baselines GLOB --out-dir DIR/m);
  });
});
