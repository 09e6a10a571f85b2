// `benchgate ingest divan FILE` as a user runs it, on divan 0.1.21's real console output in
// fixtures/divan/ (README.md there): one benchmark per leaf out, and exit 2 with one line naming
// the line for every output it cannot read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expectInputError, runCli, ROOT } from "./support/cli.ts";
import { validateSummary } from "../src/schemas/validate-document.ts";

const DIVAN = path.join(ROOT, "action/test/fixtures/divan/0.1.21");
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-ingest-divan-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("benchgate ingest divan on real output", () => {
  it.each([
    ["shapes", 16],
    ["allocs", 4],
    ["binary-filtered", 3],
  ])("ingest divan %s.stdout.txt: %d benchmarks, a valid summary", (name, count) => {
    const out = path.join(dir, `${name}.json`);
    const r = runCli(["ingest", "divan", path.join(DIVAN, `${name}.stdout.txt`), "--round", "2"]);
    expect(r.status, r.stderr).toBe(0);
    writeFileSync(out, r.stdout);
    const summary = validateSummary(JSON.parse(readFileSync(out, "utf8")), out);
    expect(summary.round).toBe(2);
    expect(summary.benchmarks).toHaveLength(count);
    expect(
      summary.benchmarks.every(
        (b) =>
          b.source === "divan" && b.suite === "divan" && b.unit === "ns" && b.samples === undefined,
      ),
    ).toBe(true);
    expect(runCli(["validate", out]).status).toBe(0);
  });

  it("--suite names the suite", () => {
    const r = runCli(["ingest", "divan", path.join(DIVAN, "allocs.stdout.txt"), "--suite", "al"]);
    expect(r.status, r.stderr).toBe(0);
    expect(validateSummary(JSON.parse(r.stdout), "stdout").benchmarks[0]?.suite).toBe("al");
  });

  it("is listed in ingest's help", () => {
    const help = runCli(["ingest", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^ {2}divan FILE {3,}divan's console output of a bench run/m);
  });

  it("compares two runs: one verdict per benchmark", () => {
    const base = path.join(dir, "base.json");
    const head = path.join(dir, "head.json");
    const file = path.join(DIVAN, "shapes.stdout.txt");
    writeFileSync(base, runCli(["ingest", "divan", file, "--side", "base"]).stdout);
    writeFileSync(head, runCli(["ingest", "divan", file, "--side", "head"]).stdout);
    const r = runCli(["compare", "--base", base, "--head", head, "--json", "-"]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { benchmarks: { id: string }[] };
    expect(report.benchmarks.map((b) => b.id)).toHaveLength(16);
    expect(report.benchmarks.map((b) => b.id)).toContain("shapes/checksum/fletcher16/65536");
  });
});

describe("benchgate ingest divan refuses, exit 2 and one line naming the line", () => {
  it.each([
    ["list.stdout.txt", /list\.stdout\.txt: line 1: not divan's table: .*"shapes"$/],
    ["no-match.stdout.txt", /no-match\.stdout\.txt: divan printed nothing/],
    ["shapes.stderr.txt", /shapes\.stderr\.txt: line 1: .*" {4}Finished/],
  ])("%s", (name, message) => {
    const line = expectInputError(runCli(["ingest", "divan", path.join(DIVAN, name)]));
    expect(line).toMatch(message);
  });

  it("a line the bench printed on stdout inside the table", () => {
    const lines = readFileSync(path.join(DIVAN, "shapes.stdout.txt"), "utf8").split("\n");
    lines.splice(5, 0, "debug: 42");
    const file = path.join(dir, "printed.txt");
    writeFileSync(file, lines.join("\n"));
    const line = expectInputError(runCli(["ingest", "divan", file]));
    expect(line).toMatch(/printed\.txt: line 6: not divan's table: .*"debug: 42"$/);
  });

  it("--name is not for divan", () => {
    const r = runCli(["ingest", "divan", path.join(DIVAN, "shapes.stdout.txt"), "--name", "x"]);
    expect(expectInputError(r)).toMatch(/ingest divan takes no benchmark name/);
  });
});
