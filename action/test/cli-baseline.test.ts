import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { baselineCommand } from "../src/cli/commands/baseline.ts";
import { compareCommand } from "../src/cli/commands/compare.ts";
import { EXIT } from "../src/cli/exit-codes.ts";
import { InputError } from "../src/errors.ts";
import { ingest } from "../src/ingest/index.ts";
import { nodeFileReader } from "../src/io/node-files.ts";
import { validateReport, validateSummary } from "../src/schemas/validate-document.ts";
import { capturedDeps } from "./support/cli-deps.ts";
import { FIXTURES } from "./support/fixtures.ts";

const BASE_SHA = "1111111111111111111111111111111111111111";
const HEAD_SHA = "2222222222222222222222222222222222222222";
let repo: string;
let run: string;

/**
 * A `benchgate run --out` folder made of real Criterion output: the fixtures' "base" and "head"
 * baselines of three Criterion versions as rounds 1–3, with the commit each side measured.
 */
async function writeRunFolder(dir: string): Promise<void> {
  mkdirSync(path.join(dir, "summaries"), { recursive: true });
  const versions = ["criterion-0.5.1", "criterion-0.4.0", "criterion-0.3.6"];
  for (const [i, version] of versions.entries()) {
    for (const side of ["base", "head"] as const) {
      const summary = await ingest(
        "criterion",
        path.join(FIXTURES, version),
        { baseline: side, side, round: i + 1 },
        nodeFileReader,
      );
      const stamped = { ...summary, commit: side === "base" ? BASE_SHA : HEAD_SHA };
      writeFileSync(
        path.join(dir, "summaries", `${side}-${i + 1}.json`),
        JSON.stringify(stamped, null, 2) + "\n",
      );
    }
  }
}

beforeAll(async () => {
  repo = mkdtempSync(path.join(tmpdir(), "benchgate-baseline-"));
  run = path.join(repo, "out");
  await writeRunFolder(run);
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

async function accept(argv: string[]): Promise<{ code: number; out: string }> {
  const { deps, out } = capturedDeps({ cwd: repo });
  const code = await baselineCommand(["accept", ...argv], deps);
  return { code, out: out() };
}

async function refusal(argv: string[]): Promise<string> {
  const error = await accept(argv).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).describe();
}

const folder = (name: string): string => path.join(repo, "baselines", name);

describe("benchgate baseline accept", () => {
  it("stores the head side of a run and prints the reviewed-commit steps", async () => {
    const { code, out } = await accept([
      "main",
      "--from",
      run,
      "--by",
      "octocat",
      "--reason",
      "v1.4 on the pinned runner",
    ]);
    expect(code).toBe(EXIT.pass);
    expect(readdirSync(folder("main")).sort()).toEqual([
      "manifest.yml",
      "round-1.json",
      "round-2.json",
      "round-3.json",
    ]);
    for (const r of [1, 2, 3]) {
      const stored = readFileSync(path.join(folder("main"), `round-${r}.json`), "utf8");
      const original = readFileSync(path.join(run, "summaries", `head-${r}.json`), "utf8");
      expect(validateSummary(JSON.parse(stored), "stored")).toEqual(JSON.parse(original));
    }
    const manifest: unknown = parseYaml(
      readFileSync(path.join(folder("main"), "manifest.yml"), "utf8"),
    );
    expect(manifest).toMatchObject({
      name: "main",
      commit: HEAD_SHA,
      side: "head",
      accepted_at: "2026-11-22T12:00:00.000Z",
      accepted_by: "octocat",
      reason: "v1.4 on the pinned runner",
      rounds: 3,
    });
    expect(out).toContain("wrote baselines/main/: round-1.json … round-3.json (3 rounds,");
    expect(out).toContain("  git switch -c baseline/main-2222222\n");
    expect(out).toContain("  git add baselines/main\n");
    expect(out).toContain('  git commit -m "baseline main: accept 222222222222 (head)"\n');
    expect(out).toContain("  benchgate compare --base baselines/main/*.json --head SUMMARY...\n");
  });

  it("is the base side of compare: the stored-baseline mode", async () => {
    await accept(["before", "--from", run, "--side", "base"]);
    const stored = readdirSync(folder("before"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => path.join(folder("before"), f));
    expect(stored).toHaveLength(3);
    const head = [1, 2, 3].map((r) => path.join(run, "summaries", `head-${r}.json`));
    const report = path.join(repo, "report.json");
    const { deps } = capturedDeps({ cwd: repo });
    const code = await compareCommand(
      ["--base", ...stored, "--head", ...head, "--json", report, "--quiet"],
      deps,
    );
    expect([EXIT.pass, EXIT.gateFailed]).toContain(code);
    const parsed = validateReport(JSON.parse(readFileSync(report, "utf8")), report);
    const fib = parsed.benchmarks.find((b) => b.id === "fib 20");
    expect(fib).toMatchObject({ rounds: 3, unverified: false });
    expect(fib?.base?.value).toBeGreaterThan(0);
    expect(fib?.head?.value).toBeGreaterThan(0);
  });

  it("refuses to overwrite without --force, and replaces every old round with it", async () => {
    expect(await refusal(["main", "--from", run])).toBe(
      "baselines/main: already holds a baseline (4 files); pass --force to replace it",
    );
    const one = path.join(run, "summaries", "head-2.json");
    const { code } = await accept(["main", one, "--force"]);
    expect(code).toBe(EXIT.pass);
    // The old round-1 and round-3 are gone: a glob over the folder sees only the new baseline.
    expect(readdirSync(folder("main")).sort()).toEqual(["manifest.yml", "round-2.json"]);
  });

  it("never deletes files it did not write, even with --force", async () => {
    mkdirSync(folder("golden"), { recursive: true });
    writeFileSync(path.join(folder("golden"), "cli-help.out"), "usage\n");
    writeFileSync(path.join(folder("golden"), "round-1.json"), "{}\n");
    expect(await refusal(["golden", "--from", run, "--force"])).toMatch(
      /^baselines\/golden: holds entries benchgate baseline accept did not write \("cli-help\.out"\); refusing/,
    );
    expect(readFileSync(path.join(folder("golden"), "cli-help.out"), "utf8")).toBe("usage\n");
  });

  it("writes under --dir and accepts summary files given by name", async () => {
    const files = [1, 2].map((r) => path.join(run, "summaries", `base-${r}.json`));
    const { out } = await accept(["pr-123", ...files, "--dir", "perf/accepted"]);
    expect(readdirSync(path.join(repo, "perf/accepted/pr-123")).sort()).toEqual([
      "manifest.yml",
      "round-1.json",
      "round-2.json",
    ]);
    expect(out).toContain("git add perf/accepted/pr-123\n");
  });

  it.each([
    [["../escape", "--from", "out"], /baseline name "\.\.\/escape" must be/],
    [["main"], /needs --from DIR or SUMMARY files/],
    [["main", "--from", "out", "x.json"], /--from DIR or SUMMARY files, not both/],
    [["main", "--from", "out", "--side", "left"], /--side must be base or head/],
    [["main", "x.json", "--side", "head"], /--side applies to --from DIR/],
    [["main", "--from", "nowhere"], /nowhere\/summaries: directory not found/],
  ])("bad usage %j", async (argv, message) => {
    expect(await refusal(argv)).toMatch(message);
  });

  it("refuses summaries of two sides, writing nothing", async () => {
    const files = ["base-1.json", "head-2.json"].map((f) => path.join(run, "summaries", f));
    expect(await refusal(["mixed", ...files])).toMatch(
      /head-2\.json: side "head" differs from "base"/,
    );
    expect(existsSync(folder("mixed"))).toBe(false);
  });

  it("refuses an invalid summary, naming the file", async () => {
    const bad = path.join(repo, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({ schema_version: 1, side: "head", round: 0, benchmarks: [] }),
    );
    expect(await refusal(["bad", bad])).toMatch(/bad\.json: \/round: /);
  });

  it("prints its help, and refuses a missing action", async () => {
    const { deps, out } = capturedDeps();
    expect(await baselineCommand(["--help"], deps)).toBe(EXIT.pass);
    expect(out()).toMatch(/^Usage: benchgate baseline accept NAME/);
    await expect(baselineCommand([], deps)).rejects.toThrow(/needs an action/);
  });
});
