import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { historyImportCommand } from "../src/cli/commands/history-import.ts";
import { EXIT } from "../src/cli/exit-codes.ts";
import { InputError } from "../src/errors.ts";
import { exportGabDataJs } from "../src/history/gab-export.ts";
import { readHistoryFile } from "../src/ingest/read-document.ts";
import { nodeFileReader } from "../src/io/node-files.ts";
import { capturedDeps } from "./support/cli-deps.ts";
import { FIXTURES } from "./support/fixtures.ts";

const GAB = path.join(FIXTURES, "gab-data-js");
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-history-import-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The shogi_core fixture with one value replaced by `value`, written as `name` in the temp folder. */
function shogiWithValue(value: string, name: string): string {
  const file = path.join(dir, name);
  const text = readFileSync(path.join(GAB, "shogi_core-cargo.data.js"), "utf8");
  writeFileSync(file, text.replace('"value": 19888', `"value": ${value}`));
  return file;
}

async function failure(argv: string[]): Promise<string> {
  const { deps } = capturedDeps();
  const error = await historyImportCommand(argv, deps).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).describe();
}

describe("benchgate history import", () => {
  it("imports a real data.js into a new history.json and says what it imported", async () => {
    const out = path.join(dir, "shogi.json");
    const { deps, err } = capturedDeps();
    const code = await historyImportCommand(
      [path.join(GAB, "shogi_core-cargo.data.js"), "-o", out],
      deps,
    );
    expect(code).toBe(EXIT.pass);
    const history = await readHistoryFile(nodeFileReader, out);
    expect(history.commits).toHaveLength(3);
    expect(history.updated_at).toBe("2026-11-22T12:00:00.000Z");
    expect(err()).toMatch(
      /imported .*shogi_core-cargo\.data\.js \(data\.js\): 1 suite, 5 series, 3 commits, 15 of 15 values as points, 0 earlier runs as reruns → .*shogi\.json\n$/,
    );
    expect(err()).toMatch(/benchgate: warning: 3 commit messages kept to the first line/);
  });

  it("merges into an existing history with --into, writing over it in place", async () => {
    const history = path.join(dir, "merged.json");
    const first = capturedDeps();
    await historyImportCommand(
      [path.join(GAB, "opentelemetry-python-pytest-two-suites.data.js"), "-o", history],
      first.deps,
    );
    const second = capturedDeps();
    const code = await historyImportCommand(
      [
        path.join(GAB, "structlog-sentry-logger-pytest-reruns.data.js"),
        "--into",
        history,
        "-o",
        history,
      ],
      second.deps,
    );
    expect(code).toBe(EXIT.pass);
    const merged = await readHistoryFile(nodeFileReader, history);
    expect(merged.commits.map((c) => c.sha.slice(0, 7))).toEqual(["ad894b1", "f14106e", "f405cc0"]);
    expect(new Set(merged.series.map((s) => s.suite))).toEqual(
      new Set([
        "OpenTelemetry Python Benchmarks - Python 3.7 - propagator",
        "OpenTelemetry Python Benchmarks - Python 3.8 - propagator",
        "Benchmark",
      ]),
    );
    expect(merged.commits.map((c) => c.reruns?.length ?? 0)).toEqual([0, 2, 1]);
    expect(second.err()).toMatch(
      /10 of 10 values as points, 3 earlier runs as reruns \(2 new commits, 0 already in /,
    );
    expect(second.err()).not.toMatch(/warning/);

    // The same file again: nothing new, and the command says the values were already there.
    const third = capturedDeps();
    const before = readFileSync(history, "utf8");
    await historyImportCommand(
      [
        path.join(GAB, "structlog-sentry-logger-pytest-reruns.data.js"),
        "--into",
        history,
        "-o",
        history,
      ],
      third.deps,
    );
    expect(third.err()).toMatch(
      /0 of 10 values as points, 0 earlier runs as reruns \(0 new commits, 2 already in .*, 10 values already there\)/,
    );
    const again = readFileSync(history, "utf8");
    // Only updated_at may change (the clock is fixed in these tests, so nothing does).
    expect(again).toBe(before);
  });

  it("writes to standard output with -o -", async () => {
    const { deps, out } = capturedDeps();
    await historyImportCommand(
      [path.join(GAB, "opentelemetry-python-pytest-two-suites.data.js"), "-o", "-"],
      deps,
    );
    expect((JSON.parse(out()) as { commits: unknown[] }).commits).toHaveLength(1);
  });

  it("reads the external JSON form and gab-compatible files benchgate exported", async () => {
    const source = path.join(dir, "shogi-for-external.json");
    const external = path.join(dir, "external.json");
    await historyImportCommand(
      [path.join(GAB, "shogi_core-cargo.data.js"), "-o", source],
      capturedDeps().deps,
    );
    const history = await readHistoryFile(nodeFileReader, source);
    writeFileSync(external, exportGabDataJs(history).replace(/^window\.BENCHMARK_DATA = /, ""));
    const { deps, err } = capturedDeps();
    await historyImportCommand([external, "-o", path.join(dir, "again.json")], deps);
    expect(err()).toMatch(/\(external-json\): 1 suite, 5 series, 3 commits, 15 of 15 values/);
    expect(err()).not.toMatch(/warning/);
  });

  it("--strict accepts a file with re-runs: every value is kept", async () => {
    const out = path.join(dir, "strict-reruns.json");
    const { deps } = capturedDeps();
    const code = await historyImportCommand(
      [path.join(GAB, "structlog-sentry-logger-pytest-reruns.data.js"), "--strict", "-o", out],
      deps,
    );
    expect(code).toBe(EXIT.pass);
    expect(existsSync(out)).toBe(true);
  });

  it("--strict refuses, writing nothing, when a value would not be in the history", async () => {
    const source = shogiWithValue("null", "null.data.js");
    const out = path.join(dir, "strict.json");
    const message = await failure([source, "--strict", "-o", out]);
    expect(message).toMatch(
      /null\.data\.js: 1 of 15 values would not be in the history .*nothing written \(--strict\)$/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    [["-o", "x.json"], /needs FILE/],
    [["a.js"], /needs -o OUT/],
    [["a.js", "b.js", "-o", "x"], /unexpected argument "b\.js"/],
    [["a.js", "-o", "x", "--bogus"], /unknown option --bogus/],
  ])("usage errors: %j", async (argv, message) => {
    expect(await failure(argv)).toMatch(message);
  });

  it("a corrupt --into history stops the import and is left untouched", async () => {
    const into = path.join(dir, "corrupt.json");
    writeFileSync(into, '{"schema_version": 1, "series": [], "commits": [');
    const message = await failure([
      path.join(GAB, "shogi_core-cargo.data.js"),
      "--into",
      into,
      "-o",
      into,
    ]);
    expect(message).toMatch(/corrupt\.json: invalid JSON/);
    expect(readFileSync(into, "utf8")).toBe('{"schema_version": 1, "series": [], "commits": [');
  });

  it("bad input names the file and JSON path and writes nothing", async () => {
    const bad = shogiWithValue('"19888"', "bad.data.js");
    const out = path.join(dir, "never.json");
    expect(await failure([bad, "-o", out])).toMatch(
      /bad\.data\.js: \/entries\/Benchmark result \(shogi_legality_lite\)\/0\/benches\/1\/value: expected a number, found a string "19888"/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("prints its help", async () => {
    const { deps, out } = capturedDeps();
    expect(await historyImportCommand(["--help"], deps)).toBe(EXIT.pass);
    expect(out()).toMatch(/^Usage: benchgate history import FILE -o OUT/);
  });
});
