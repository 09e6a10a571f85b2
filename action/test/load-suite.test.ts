// `kind: load` end to end: the demo crate's HTTP server (examples/demo-crate/src/bin/demo-server.rs)
// built by cargo for base and head, loaded by the real oha on 127.0.0.1 in short, bounded runs.
// Effects are far larger than this machine's noise (5 ms added to a request that takes tens of
// µs; a leak of one descriptor per request): the tests check the verdict's plumbing, not power.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitAll, git } from "./support/git-repo.ts";
import { runRepo, type RunTarget } from "./support/cli.ts";
import { SERVER_SOURCE, withDelay, writeDemoServerCrate } from "./support/demo-server-crate.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";

const LONG = 600_000;
const scratch = mkdtempSync(path.join(tmpdir(), "benchgate-load-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A marker in the server's argv, so a test can look for processes this file started. */
const MARK = `benchgate-load-test-${process.pid}`;

function config(suite: string, rounds = 3): string {
  return `version: 1
rounds: ${rounds}
build:
  - ["cargo", "build", "--release", "--bin", "demo-server"]
suites:
  - name: api
    kind: load
${suite
  .trim()
  .split("\n")
  .map((l) => `    ${l}`)
  .join("\n")}
`;
}

const SERVER = `server: ["{target}/release/demo-server", "--port", "{port}"]
ready: /health
duration: 1s
connections: 8
endpoints:
  - name: health
    path: /health`;

function repo(name: string, yml: string, head?: (server: string) => string): RunTarget {
  const dir = path.join(scratch, name, "repo");
  const server = writeDemoServerCrate(dir);
  writeFileSync(path.join(dir, "benchgate.yml"), yml);
  git(dir, ["init", "--quiet"]);
  commitAll(dir, "base");
  if (head !== undefined) writeFileSync(path.join(dir, SERVER_SOURCE), head(server));
  commitAll(dir, "head");
  return { dir, out: path.join(scratch, name, "out"), cache: path.join(scratch, name, "cache") };
}

function report(r: RunTarget): BenchReport {
  return JSON.parse(readFileSync(path.join(r.out, "report.json"), "utf8")) as BenchReport;
}

/** Processes whose command line holds `text` (none may outlive a suite). */
function processesWith(text: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.includes(text) && !l.includes("ps -eo"));
}

/** The one `benchgate: error:` line of a failed run. */
function errorLine(stderr: string): string {
  const lines = stderr.split("\n").filter((l) => l.startsWith("benchgate: error: "));
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
}

const entry = (r: BenchReport, id: string) => r.benchmarks.find((b) => b.id === id);

describe("load suites (real server, real oha)", { timeout: LONG }, () => {
  it("finds 5 ms added to every request in head as a p99 regression and a req/s drop", () => {
    // 12 rounds: a load is confirmed only from there, by the median of its rounds and the sign
    // test — p99 of a 1-second load on a shared machine swings by tens of % between rounds, and
    // runs fall into modes (docs/load-tests.md).
    const r = repo("slower", config(SERVER, 12), (s) => withDelay(s, 5));
    const { status, stderr } = runRepo(r);
    expect(status, stderr).toBe(1);
    const rep = report(r);
    expect(entry(rep, "health p99")).toMatchObject({ verdict: "regressed", unit: "ns" });
    expect(entry(rep, "health req/s")).toMatchObject({
      verdict: "regressed",
      unit: "req/s",
      direction: "bigger_is_better",
    });
    expect(entry(rep, "health req/s")?.change).toBeLessThan(0);
    expect(entry(rep, "health p99")?.change).toBeGreaterThan(0);
    // The server's resources are reported beside the endpoints, and stay within their defaults.
    expect(entry(rep, "api/server [fd_growth]")).toMatchObject({ secondary: true, unit: "fds" });
    expect(entry(rep, "api/server [peak_rss]")).toMatchObject({ secondary: true, unit: "B" });
    expect(rep.budgets.filter((b) => !b.ok)).toEqual([]);
    const comment = readFileSync(path.join(r.out, "comment.md"), "utf8");
    expect(comment).toContain("health p99");
  });

  it("reports a server that leaks one file descriptor per request as FD growth, failing the gate", () => {
    const r = repo("leak", config(SERVER), (s) =>
      s.replace(
        "        // per request\n",
        '        // per request\n        std::mem::forget(std::fs::File::open("/dev/null")?);\n',
      ),
    );
    const { status, stderr } = runRepo(r);
    expect(status, stderr).toBe(1);
    const rep = report(r);
    const growth = entry(rep, "api/server [fd_growth]");
    expect(growth?.head?.value, "descriptors left open by head's server").toBeGreaterThan(100);
    expect(growth?.base?.value, "base's server closes what it opens").toBeLessThanOrEqual(16);
    // Once the leak reaches the open-file limit (1,024 here), the server also fails requests.
    const broken = rep.budgets.filter((b) => !b.ok).map((b) => [b.benchmark, b.statistic]);
    expect(broken).toContainEqual(["api/server [fd_growth]", "fd_growth"]);
    const comment = readFileSync(path.join(r.out, "comment.md"), "utf8");
    expect(comment).toMatch(/fd_growth/);
  });

  it("ends with one clear error and no process left when the server never becomes ready", () => {
    const r = repo(
      "never-ready",
      config(`server: ["sh", "-c", "sleep 301; echo ${MARK}"]
ready: /health
ready-timeout: 2s
endpoints:
  - name: health
    path: /health`),
    );
    const { status, stderr } = runRepo(r);
    expect(status, stderr).toBe(3);
    expect(errorLine(stderr)).toMatch(
      /server did not become ready within 2 s: GET http:\/\/127\.0\.0\.1:\d+\/health last gave ECONNREFUSED/,
    );
    expect(processesWith(MARK)).toEqual([]);
    expect(processesWith("sleep 301")).toEqual([]);
  });

  it("ends with one clear error and no process left when the server exits mid-run", () => {
    const r = repo(
      "exits",
      config(`server: ["timeout", "1", "{target}/release/demo-server", "--port", "{port}"]
ready: /health
duration: 3s
connections: 4
endpoints:
  - name: health
    path: /health`),
    );
    const { status, stderr } = runRepo(r);
    expect(status, stderr).toBe(3);
    expect(errorLine(stderr)).toMatch(/server exited with code 124 during the load of health/);
    expect(processesWith(r.cache)).toEqual([]);
  });

  it("ends with one clear error and stops the server when the load generator is missing", () => {
    const r = repo(
      "no-generator",
      config(`${SERVER}
generator:
  command: ["benchgate-no-such-load-tool", "{url}", "{out}"]
  format: oha`),
    );
    const { status, stderr } = runRepo(r);
    expect(status, stderr).toBe(3);
    expect(errorLine(stderr)).toMatch(
      /endpoint 1 of 1 \(health\) could not start: .*benchgate-no-such-load-tool/,
    );
    expect(processesWith(r.cache)).toEqual([]);
  });
});
