// `npm test`: every check CI makes, in the order that fails fastest, then the test suite.
// Ends with a plain "N passed, N failed" line so any log reader can count the tests.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name: string): string => path.join(root, "node_modules/.bin", name);

function step(title: string, command: string, args: string[]): void {
  const started = Date.now();
  process.stderr.write(`\n── ${title}: ${[path.basename(command), ...args].join(" ")}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stderr.write(
      `── ${title} failed after ${seconds} s (exit ${String(result.status ?? result.signal)})\n`,
    );
    process.exit(result.status === 0 || result.status === null ? 1 : result.status);
  }
  process.stderr.write(`── ${title} ok (${seconds} s)\n`);
}

const only = process.argv.slice(2);
if (only.length === 0) {
  step("schema types up to date", process.execPath, ["scripts/gen-schema-types.ts", "--check"]);
  step("typecheck", bin("tsc"), ["-p", "tsconfig.json"]);
  step("typecheck (history page)", bin("tsc"), ["-p", "action/site/tsconfig.json"]);
  step("lint", bin("eslint"), ["."]);
  step("architecture", process.execPath, ["scripts/check-architecture.ts"]);
  step("exports", process.execPath, ["scripts/check-exports.ts"]);
  step("format", bin("prettier"), ["--check", "."]);
  step("workflow lint", process.execPath, ["scripts/lint-workflows.ts"]);
  step("bundle", process.execPath, ["scripts/build.ts"]);
}

const dir = mkdtempSync(path.join(tmpdir(), "benchgate-test-"));
const resultsFile = path.join(dir, "results.json");
const vitest = spawnSync(
  bin("vitest"),
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${resultsFile}`, ...only],
  { cwd: root, stdio: "inherit" },
);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const results = JSON.parse(readFileSync(resultsFile, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  passed = results.numPassedTests;
  failed = results.numFailedTests;
  skipped = results.numPendingTests + results.numTodoTests;
} catch {
  failed = Math.max(failed, 1);
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(vitest.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
