// Where the real CLI's output goes when that place is hostile or broken (docs/cli.md, "Outputs";
// docs/threat-model.md, O6 and O7): a FIFO, a device or a symbolic link given as an output file,
// a path under a regular file, a full disk as standard output, a reader that closes the pipe
// early, and benchmark names that a CI log would obey as workflow commands.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { CLI_SOURCE, ROOT, expectInputError, runCli } from "./support/cli.ts";
import { syntheticHistory } from "./support/synthetic-history.ts";

const CRITERION = path.join(ROOT, "action/test/fixtures/criterion-0.5.1");
// Ids a GitHub runner would obey if a line of the log started with them (or contained "##[").
const MASK = "::add-mask::secret";
const OLD_FORM = "x ##[add-mask]secret";

let dir: string;
const at = (name: string): string => path.join(dir, name);

/** Writes a summary with the fixture's benchmarks, two of them renamed to hostile ids. */
function hostileSummary(from: string, to: string): void {
  const summary = JSON.parse(readFileSync(from, "utf8")) as { benchmarks: { id: string }[] };
  const [first, second] = summary.benchmarks;
  if (first === undefined || second === undefined) throw new Error("fixture too small");
  first.id = MASK;
  second.id = OLD_FORM;
  writeFileSync(to, JSON.stringify(summary));
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-hostile-outputs-"));
  for (const [baseline, file] of [
    ["base", "base.json"],
    ["new", "head.json"],
  ] as const) {
    const r = runCli(["ingest", "criterion", CRITERION, "--baseline", baseline, "-o", at(file)]);
    expect(r.status, r.stderr).toBe(0);
  }
  hostileSummary(at("base.json"), at("hostile-base.json"));
  hostileSummary(at("head.json"), at("hostile-head.json"));
  writeFileSync(at("plain-file"), "not a directory\n");
  writeFileSync(
    at("history.json"),
    JSON.stringify(syntheticHistory({ benchmarks: 2, commits: 6, seed: 3 })),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function mkfifo(name: string): string {
  const fifo = at(name);
  const made = spawnSync("mkfifo", [fifo]);
  expect(made.status, String(made.stderr)).toBe(0);
  return fifo;
}

/** Runs the CLI with standard output on an open file descriptor (e.g. /dev/full). */
function runWithStdout(
  args: readonly string[],
  fd: number,
): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [CLI_SOURCE, ...args], {
    cwd: ROOT,
    stdio: ["ignore", fd, "pipe"],
    encoding: "utf8",
    env: { ...process.env, BENCHGATE_DEBUG: "" },
  });
  return { status: r.status, stderr: r.stderr };
}

/** Runs the CLI with a standard output whose reader is gone before anything is written. */
function runWithClosedReader(
  args: readonly string[],
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_SOURCE, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, BENCHGATE_DEBUG: "" },
    });
    child.stdout.destroy(); // the reader goes away, like `| head -c1` after its byte
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

describe("output files must be regular files", () => {
  it("refuses a FIFO given to -o, --json or --markdown, and leaves it a FIFO", () => {
    const fifo = mkfifo("out.fifo");
    const runs = [
      ["ingest", "criterion", CRITERION, "--baseline", "base", "-o", fifo],
      ["compare", "--base", at("base.json"), "--head", at("head.json"), "--json", fifo],
      ["compare", "--base", at("base.json"), "--head", at("head.json"), "--markdown", fifo],
    ];
    for (const args of runs) {
      const line = expectInputError(runCli(args), args[0]);
      expect(line).toBe(
        `benchgate: error: ${fifo}: is a FIFO, not a regular file; outputs are written only to regular files`,
      );
      expect(lstatSync(fifo).isFIFO(), args.join(" ")).toBe(true);
    }
  });

  it("refuses a socket and a directory", async () => {
    // A socket stands for every special file: never a device here, since a regression would
    // replace it (as root, `-o /dev/null` used to make /dev/null a regular file).
    const socket = at("out.sock");
    const server = createServer().listen(socket);
    await once(server, "listening");
    try {
      const line = expectInputError(
        runCli(["ingest", "criterion", CRITERION, "--baseline", "base", "-o", socket]),
      );
      expect(line).toContain(`${socket}: is a socket, not a regular file`);
      expect(lstatSync(socket).isSocket()).toBe(true);
    } finally {
      server.close();
    }
    const directory = expectInputError(
      runCli(["ingest", "criterion", CRITERION, "--baseline", "base", "-o", dir]),
    );
    expect(directory).toContain(`${dir}: is a directory, not a regular file`);
  });

  it("neither follows nor replaces a symbolic link", () => {
    const target = at("link-target.json");
    const link = at("link.json");
    writeFileSync(target, "keep me\n");
    symlinkSync(target, link);
    const line = expectInputError(
      runCli(["ingest", "criterion", CRITERION, "--baseline", "base", "-o", link]),
    );
    expect(line).toContain(`${link}: is a symbolic link`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("keep me\n");
  });

  it("still replaces a regular file", () => {
    const file = at("replaced.json");
    writeFileSync(file, "old\n");
    const r = runCli(["ingest", "criterion", CRITERION, "--baseline", "base", "-o", file]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toHaveProperty("benchmarks");
  });
});

describe("file-system errors are input errors naming the path", () => {
  it("an output path under a regular file (ingest -o, compare --json)", () => {
    const under = path.join(at("plain-file"), "o.json");
    for (const args of [
      ["ingest", "criterion", CRITERION, "--baseline", "base", "-o", under],
      ["compare", "--base", at("base.json"), "--head", at("head.json"), "--json", under],
    ]) {
      const line = expectInputError(runCli(args), args[0]);
      expect(line).toBe(`benchgate: error: ${under}: a part of this path is not a directory`);
    }
  });

  it("history site --out on a regular file or under one", () => {
    const history = ["history", "site", "--history", at("history.json"), "--out"];
    const onFile = expectInputError(runCli([...history, at("plain-file")]));
    expect(onFile).toBe(`benchgate: error: ${at("plain-file")}: exists and is not a directory`);
    const sub = path.join(at("plain-file"), "site");
    const underFile = expectInputError(runCli([...history, sub]));
    expect(underFile).toBe(`benchgate: error: ${sub}: a part of this path is not a directory`);
  });
});

describe("a failing standard output", () => {
  it.runIf(existsSync("/dev/full"))(
    "on a full disk: exit 3, one line on standard error, no stack trace",
    () => {
      const full = openSync("/dev/full", "w");
      try {
        for (const args of [
          ["ingest", "criterion", CRITERION, "--baseline", "base"],
          ["compare", "--base", at("base.json"), "--head", at("head.json")],
          ["--help"],
        ]) {
          const r = runWithStdout(args, full);
          expect(r.status, args[0]).toBe(3);
          expect(r.stderr.trimEnd().split("\n"), args[0]).toEqual([
            expect.stringMatching(/^benchgate: error: cannot write to standard output \(ENOSPC/),
          ]);
          expect(r.stderr).not.toMatch(/\n\s+at /);
        }
      } finally {
        closeSync(full);
      }
    },
  );

  it("a reader that closed the pipe early: quiet, and the command's own exit code", async () => {
    // JSON goes to the closed pipe, then the Markdown file is still written: the command
    // finishes and exits as it would have (0 pass, 1 the gate failed), never as a crash.
    for (const [head, code] of [
      ["base.json", 0],
      ["head.json", 1],
    ] as const) {
      const markdown = at(`closed-reader-${code}.md`);
      const r = await runWithClosedReader([
        "compare",
        "--base",
        at("base.json"),
        "--head",
        at(head),
        "--json",
        "-",
        "--markdown",
        markdown,
      ]);
      expect(r.stderr, head).toBe("");
      expect(r.status, head).toBe(code);
      expect(readFileSync(markdown, "utf8")).toContain("benchgate");
    }
  });
});

describe("benchmark names cannot be workflow commands in a CI log", () => {
  const obeyed = (text: string): string[] =>
    text.split(/\r\n|\r|\n/u).filter((l) => /^[\s\u0085]*::/u.test(l) || l.includes("##["));

  it("compare's terminal table is defused, the report files are untouched", () => {
    const json = at("hostile-report.json");
    const markdown = at("hostile-comment.md");
    const r = runCli([
      "compare",
      "--base",
      at("hostile-base.json"),
      "--head",
      at("hostile-head.json"),
      "--json",
      json,
      "--markdown",
      markdown,
    ]);
    expect([0, 1]).toContain(r.status);
    expect(obeyed(r.stdout)).toEqual([]);
    expect(obeyed(r.stderr)).toEqual([]);
    expect(r.stdout).toMatch(/^:\\u003aadd-mask::secret /mu);
    const ids = (
      JSON.parse(readFileSync(json, "utf8")) as { benchmarks: { id: string }[] }
    ).benchmarks.map((b) => b.id);
    expect(ids).toEqual(expect.arrayContaining([MASK, OLD_FORM]));
  });

  it("a JSON document on standard output keeps every id", () => {
    const r = runCli([
      "compare",
      "--base",
      at("hostile-base.json"),
      "--head",
      at("hostile-head.json"),
      "--json",
      "-",
    ]);
    expect([0, 1]).toContain(r.status);
    expect(obeyed(r.stdout)).toEqual([]);
    const ids = (JSON.parse(r.stdout) as { benchmarks: { id: string }[] }).benchmarks.map(
      (b) => b.id,
    );
    expect(ids).toEqual(expect.arrayContaining([MASK, OLD_FORM]));
  });
});

describe("help", () => {
  it("keeps every command name apart from its summary", () => {
    const r = runCli(["--help"]);
    expect(r.status).toBe(0);
    const commands = r.stdout.split("\n").filter((l) => /^ {2}[a-z]/u.test(l));
    expect(commands.length).toBeGreaterThanOrEqual(9);
    for (const line of commands) expect(line).toMatch(/^ {2}[a-z-]+ {2,}\S/u);
    expect(r.stdout).toContain("runner-hook  the benchmark runner's");
  });
});
