// `benchgate run` against processes that try to outlive their suite (issue "fail closed
// everywhere", items 2, 3 and 6): a load server that double-forks into a daemon, a server whose
// worker calls setpgid(0, 0) with its stdio closed, a benchmark whose setsid grandchild keeps
// stdout open past the suite's timeout, a benchmark that leaves a background job behind, and a
// server that floods its log. Each run must end (exit 3, one line naming what escaped or timed
// out) and leave no process with the test's marker; the servers and benchmarks are the scripts
// of action/test/fixtures/processes/. Runs are bounded only to turn a hang into a failure; no
// test asserts on a duration.
import { spawn, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LOG_HEAD_BYTES, LOG_TAIL_BYTES } from "../src/io/capped-log.ts";
import { CLI_SOURCE, type CliResult } from "./support/cli.ts";
import { ESCAPE_SCRIPT, leavesNothing, processesWith } from "./support/escaping-processes.ts";
import { commitAll, git } from "./support/git-repo.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "benchgate-escape-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Far above what any of these runs needs; only there to turn a hang into a failure. */
const HANG_MS = 120_000;

/** `benchgate run` of main~1 against main, killed (and failed) if it has not ended by HANG_MS. */
function runBounded(
  target: { dir: string; out: string },
  started?: (child: ChildProcess) => void,
): Promise<CliResult> {
  const { dir, out } = target;
  const args = ["run", "--repo", dir, "--base", "main~1", "--head", "main", "--out", out];
  const child = spawn(
    process.execPath,
    [CLI_SOURCE, ...args, "--cache-dir", path.join(out, "..", "cache")],
    { env: { ...process.env, BENCHGATE_DEBUG: "" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  started?.(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`benchgate run did not end within ${HANG_MS} ms:\n${stderr}`));
    }, HANG_MS);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** A repository with the escape fixture and `yml` as benchgate.yml, at base and head. */
function repo(name: string, yml: string): { dir: string; out: string } {
  const dir = path.join(scratch, name, "repo");
  mkdirSync(dir, { recursive: true });
  copyFileSync(ESCAPE_SCRIPT, path.join(dir, "escape.py"));
  writeFileSync(path.join(dir, "benchgate.yml"), `version: 1\nrounds: 3\nsuites:\n${yml}`);
  git(dir, ["init", "--quiet"]);
  commitAll(dir, "base");
  writeFileSync(path.join(dir, "README"), "head\n");
  commitAll(dir, "head");
  return { dir, out: path.join(scratch, name, "out") };
}

/** The one `benchgate: error:` line of a failed run. */
function errorLine(stderr: string): string {
  const lines = stderr.split("\n").filter((l) => l.startsWith("benchgate: error: "));
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
}

const loadSuite = (server: string): string => `  - name: api
    kind: load
    server: ${server}
    ready: /
    ready-timeout: 20s
    stop-grace: 2s
    duration: 1s
    connections: 2
    endpoints:
      - { name: root, path: / }
`;

/** A custom suite `bench` whose one benchmark process is `command` (it never writes its output). */
const benchSuite = (command: string, extra = ""): string => `  - name: bench
    kind: custom
    command: ${command}
    output: summary.json${extra}
`;

describe("nothing outlives a suite (benchgate run)", { timeout: HANG_MS + 30_000 }, () => {
  it("ends with exit 3 naming the daemon a load server double-forked into, and kills it", async () => {
    await leavesNothing(async (m) => {
      const r = repo("daemon", loadSuite(`["python3", "{worktree}/escape.py", "daemon", "${m}"]`));
      const { status, stderr } = await runBounded(r);
      expect(status, stderr).toBe(3);
      expect(errorLine(stderr)).toMatch(
        /suite api \(base, round 1\), server left a process running after it ended .*: pid \d+ \(sleep\) \(full log: .*api-base-1\.log\)$/,
      );
    });
  });

  it("ends with exit 3 naming a server's worker that called setpgid(0, 0) with its stdio closed", async () => {
    await leavesNothing(async (m) => {
      const r = repo(
        "setpgid",
        loadSuite(`["python3", "{worktree}/escape.py", "setpgid", "${m}", "{port}"]`),
      );
      const { status, stderr } = await runBounded(r);
      expect(status, stderr).toBe(3);
      expect(errorLine(stderr)).toMatch(
        /suite api \(base, round 1\), server left a process running after it ended .*: pid \d+ \(sleep\)/,
      );
    });
  });

  it("ends a benchmark at its timeout when a setsid grandchild keeps its stdout open", async () => {
    await leavesNothing(async (m) => {
      const r = repo(
        "setsid-timeout",
        benchSuite(`["sh", "-c", "setsid sleep ${m} & sleep ${m}"]`, "\n    timeout: 4s"),
      );
      const { status, stderr } = await runBounded(r);
      expect(status, stderr).toBe(3);
      expect(errorLine(stderr)).toMatch(/suite bench \(base, round 1\) timed out after 4 s/);
    });
  });

  it("ends with exit 3 naming a background job a benchmark left in its group after exiting 0", async () => {
    await leavesNothing(async (m) => {
      const r = repo("background", benchSuite(`["python3", "escape.py", "group", "${m}"]`));
      const { status, stderr } = await runBounded(r);
      expect(status, stderr).toBe(3);
      expect(errorLine(stderr)).toMatch(
        /suite bench \(base, round 1\) left a process running after it ended .*: pid \d+ \(sleep\) \(full log: .*bench-base-1\.log\)$/,
      );
    });
  });

  it.each([
    // One signal: the run stops the step (SIGTERM to every process of it) and exits 3.
    ["stops on SIGTERM", "", 1, 3],
    // The sleeps ignore SIGTERM, so the first signal's stop cannot end them before the second,
    // which exits at once (143) and kills them on the way out.
    ["exits at once on a second SIGTERM", "trap '' TERM; ", 2, 143],
  ])(
    "%s and leaves no process of a step whose setsid grandchild keeps stdout",
    async (name, trap, signals, code) => {
      await leavesNothing(async (m) => {
        const r = repo(
          name.replaceAll(" ", "-"),
          benchSuite(`["sh", "-c", "${trap}setsid sleep ${m} & sleep ${m}"]`),
        );
        // Each further signal goes once benchgate says it is stopping: two sent at once may
        // reach it as one.
        const run = runBounded(r, (child) => {
          const poll = setInterval(() => {
            if (processesWith(m).length < 2) return;
            clearInterval(poll);
            child.stderr?.on("data", (chunk: Buffer) => {
              if (signals > 1 && chunk.toString("utf8").includes("stopping and cleaning up"))
                child.kill("SIGTERM");
            });
            child.kill("SIGTERM");
          }, 100);
        });
        const { status, stderr } = await run;
        expect(status, stderr).toBe(code);
      });
    },
  );

  it("caps the log of a server that writes to stderr in a loop during its load", async () => {
    const r = repo(
      "flood",
      loadSuite(
        `["sh", "-c", "yes benchgate-flood >&2 & exec python3 -m http.server {port} --bind 127.0.0.1"]`,
      ),
    );
    const { status, stderr } = await runBounded(r);
    // Pass or inconclusive on an unchanged server; what matters is what is left in logs/.
    expect([0, 1], stderr).toContain(status);
    const logs = path.join(r.out, "logs");
    for (const file of readdirSync(logs))
      expect(statSync(path.join(logs, file)).size, file).toBeLessThan(
        LOG_HEAD_BYTES + 4 * (LOG_TAIL_BYTES + 1024),
      );
  });
});
