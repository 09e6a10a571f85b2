// `benchgate validate` on a benchgate.yml refuses what `run` refuses in the file itself, with the
// same line: the ranges of durations, a load suite's keys included, unique names, budgets. Before,
// validate checked the schema alone, so `stop-grace: 0ms` and `ready-timeout: 200h` passed it and
// only `run` refused them. And a deeply nested YAML flow is an input error naming the nesting,
// not a stack overflow.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expectInputError, runCli, runRepo } from "./support/cli.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "benchgate-validate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A load suite with `extra` added to its keys. */
const loadSuite = (extra: string): string => `version: 1
suites:
  - name: api
    kind: load
    server: [./server, "{port}"]
${extra}    endpoints:
      - { name: health, path: /health }
`;

let serial = 0;
function configFile(text: string): string {
  const file = path.join(dir, `config-${++serial}.yml`);
  writeFileSync(file, text);
  return file;
}

/** `run` with the file as --config: it refuses the file before it looks at the repository. */
function runWith(config: string): ReturnType<typeof runCli> {
  const target = path.join(dir, "no-repository-here");
  return runRepo({ dir: target, out: path.join(target, "out"), cache: target, config });
}

describe("benchgate validate refuses what run refuses in benchgate.yml", () => {
  it.each([
    [
      "a stop-grace of 0ms",
      loadSuite("    stop-grace: 0ms\n"),
      '/suites/0/stop-grace: expected a duration such as "90s" or "10m" (up to 7 days), got "0ms"',
    ],
    [
      "a ready-timeout of 200h",
      loadSuite("    ready-timeout: 200h\n"),
      '/suites/0/ready-timeout: expected a duration such as "90s" or "10m" (up to 7 days), got "200h"',
    ],
    [
      "a suite timeout of 8 days",
      "version: 1\ntimeouts: { suite: 192h }\nsuites:\n  - { name: u, kind: custom, command: [h], output: o.json }\n",
      '/timeouts/suite: expected a duration such as "90s" or "10m" (up to 7 days), got "192h"',
    ],
    [
      "two suites of one name",
      "version: 1\nsuites:\n  - { name: u, kind: custom, command: [h], output: a.json }\n  - { name: u, kind: custom, command: [h], output: b.json }\n",
      '/suites/1/name: suite name "u" is also used at /suites/0/name',
    ],
    [
      "a body on a GET endpoint",
      loadSuite("").replace("path: /health }", "path: /health, body: x }"),
      '/suites/0/endpoints/0/body: endpoint "health" has a body but method GET: set method: POST, PUT or PATCH',
    ],
    [
      // Before: "invalid YAML (Maximum call stack size exceeded at line 2, column …)".
      "a flow nested 500,000 deep",
      `version: 1\nx: ${"[".repeat(500_000)}1${"]".repeat(500_000)}\n`,
      "invalid YAML (nested more than 64 levels deep at line 2, column 67)",
    ],
  ])("%s: exit 2 with the line run prints", (_, text, problem) => {
    const config = configFile(text);
    const validated = expectInputError(runCli(["validate", config]));
    expect(validated).toBe(`benchgate: error: ${config}: ${problem}`);
    expect(expectInputError(runWith(config))).toBe(validated);
  });

  it("a budget key run refuses is refused by validate too, with the same line", () => {
    const config = configFile(
      `${loadSuite("")}budgets:\n  - { benchmark: "a", medain: "< 1ms" }\n`,
    );
    const validated = expectInputError(runCli(["validate", "--schema", "config", config]));
    expect(validated).toBe(
      `benchgate: error: ${config}: /budgets/0/medain: budget rule 1 ("a"): medain: unknown key (did you mean median?)`,
    );
    expect(expectInputError(runWith(config))).toBe(validated);
  });

  it("still passes a config without suites (compare --config reads one) and the durations at the ends of the range", () => {
    const bare = configFile('version: 1\nbudgets:\n  - { benchmark: "a", median: "< 1ms" }\n');
    expect(runCli(["validate", bare])).toMatchObject({
      status: 0,
      stdout: `${bare}: valid config.v1\n`,
    });
    const ends = configFile(loadSuite("    stop-grace: 1ms\n    ready-timeout: 168h\n"));
    expect(runCli(["validate", ends])).toMatchObject({ status: 0, stderr: "" });
  });
});

describe("max-regression's old spelling", () => {
  const budget = (keys: string): string =>
    `version: 1\nbudgets:\n  - benchmark: "parse/*"\n${keys}`;

  it("is still read, with one warning line naming the rule and the new key", () => {
    const result = runCli(["validate", configFile(budget("    max_regression: 5%\n"))]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^benchgate: warning: .*: budget rule 1 \("parse\/\*"\): max_regression is max-regression's old spelling, still read; write max-regression$/u,
      ),
    ]);
  });

  it("gives no warning for the new key, and refuses both in one rule", () => {
    const fresh = runCli(["validate", configFile(budget('    max-regression: "5%"\n'))]);
    expect(fresh.status, fresh.stderr).toBe(0);
    expect(fresh.stderr).toBe("");
    const both = runCli([
      "validate",
      configFile(budget('    max-regression: "5%"\n    max_regression: "5%"\n')),
    ]);
    expect(expectInputError(both)).toContain(
      "max-regression and its old spelling max_regression in one rule: keep max-regression",
    );
  });
});
