import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import {
  checkGolden,
  goldenHash,
  goldenText,
  MAX_DIFF_CHARS,
  unifiedDiff,
} from "./check-golden.ts";
import { formatChecksums, parseChecksums } from "./checksums.ts";
import type { ProcessPort, ProcessResult } from "../ports/process.ts";
import { runGolden } from "./run-golden.ts";

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");
const dir = new URL("../../test/fixtures/golden/", import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, dir), "utf8");
const HASH = "a".repeat(64);
/** What a fake process port returns: the exit, stdout and whether it timed out. */
const ran = (exitCode: number | null, stdout: string, timedOut = false): Promise<ProcessResult> =>
  Promise.resolve({
    exitCode,
    signal: null,
    timedOut,
    aborted: false,
    stdout,
    stderrTail: "",
    durationMs: 0,
  });

describe("checksums", () => {
  it("parses sha256sum output (text and binary marker) and writes it back sorted", () => {
    const entries = parseChecksums(read("checksums.sha256"));
    expect(entries.map((e) => [e.name, e.line])).toEqual([
      ["am_help.out", 1],
      ["am_version", 2],
    ]);
    // The fixture was written by the real sha256sum over the stored .out file.
    expect(entries[0]?.sha256).toBe(sha256(new TextEncoder().encode(read("am_help.out"))));
    const text = formatChecksums([...entries].reverse());
    expect(text).toBe(`${entries[0]?.sha256}  am_help.out\n${entries[1]?.sha256}  am_version\n`);
    expect(parseChecksums(text).map((e) => e.sha256)).toEqual(entries.map((e) => e.sha256));
  });

  it("tolerates CRLF, blank lines and upper-case hex", () => {
    const entries = parseChecksums(`\r\n${"A".repeat(64)}  x\r\n\n`);
    expect(entries).toEqual([{ name: "x", sha256: HASH, line: 2 }]);
  });

  it.each([
    [`${HASH} x`, "line 1: expected two spaces"],
    [`${"a".repeat(63)}  x`, "line 1: expected 64 hex digits"],
    [`${HASH}  ../etc/passwd`, "path separator"],
    [`${HASH}  a..b`, '".."'],
    [`${HASH}  `, "empty"],
    [`${HASH}  has space`, "characters outside"],
    [`${HASH}  .hidden`, "characters outside"],
    [`${HASH}  x\n${HASH}  x`, 'line 2: "x" already listed on line 1'],
    [`SHA256 (x) = ${HASH}`, "BSD-style"],
    [`\\${HASH}  x\\ny`, "escaped name"],
  ])("rejects %j", (text, message) => {
    let error: unknown;
    try {
      parseChecksums(`\n${text}`.slice(1), "golden/checksums.sha256");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).describe()).toContain("golden/checksums.sha256: line");
    expect((error as InputError).message).toContain(message);
  });

  it("refuses to write unsafe names or bad hashes", () => {
    expect(() => formatChecksums([{ name: "a/b", sha256: HASH }])).toThrow(/separator/);
    expect(() => formatChecksums([{ name: "a", sha256: "xyz" }])).toThrow(/SHA-256/);
  });
});

describe("checkGolden", () => {
  const helpText = read("am_help.out");
  const expected = parseChecksums(read("checksums.sha256"));
  const version = { name: "am_version", stdout: "am 0.1.0\n", exitCode: 0 };

  it("matches outputs whose hash is in the file", () => {
    const results = checkGolden(
      expected,
      [{ name: "am_help.out", stdout: helpText, exitCode: 0 }, version],
      { sha256 },
    );
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ["am_help.out", true],
      ["am_version", true],
    ]);
  });

  it("counts the exit code in the hash", () => {
    expect(goldenText("x\n", 0)).toBe("x\n");
    expect(goldenText("x\n", 2)).toBe("x\n\n[benchgate: exit code 2]\n");
    expect(goldenHash({ stdout: "x\n", exitCode: 1 }, sha256)).not.toBe(
      goldenHash({ stdout: "x\n", exitCode: 0 }, sha256),
    );
    expect(goldenHash({ stdout: "x\n", exitCode: null }, sha256)).not.toBe(
      goldenHash({ stdout: "x\n", exitCode: 1 }, sha256),
    );
    const [r] = checkGolden(expected, [{ ...version, exitCode: 1 }], { sha256 }).filter(
      (x) => x.name === "am_version",
    );
    expect(r).toMatchObject({ ok: false, exit_code: 1 });
    expect(r?.message).toMatch(/exit code 1/);
  });

  it("reports a mismatch with both hashes and a short unified diff from the stored text", () => {
    const changed = helpText.replace("print help", "print this help");
    const results = checkGolden(
      expected,
      [{ name: "am_help.out", stdout: changed, exitCode: 0 }, version],
      {
        sha256,
        expectedText: new Map([["am_help.out", helpText]]),
      },
    );
    const r = results[0];
    expect(r?.ok).toBe(false);
    expect(r?.expected).toBe(expected[0]?.sha256);
    expect(r?.actual).toMatch(/^[0-9a-f]{64}$/);
    expect(r?.diff).toBe(
      [
        "--- expected/am_help.out",
        "+++ actual/am_help.out",
        "@@ -1,2 +1,2 @@",
        " usage: am [OPTIONS]",
        "-  --help  print help",
        "+  --help  print this help",
      ].join("\n"),
    );
    // Without stored text: hashes only.
    const [bare] = checkGolden(expected, [{ name: "am_help.out", stdout: changed, exitCode: 0 }], {
      sha256,
    });
    expect(bare?.diff).toBeUndefined();
    expect(bare?.message).toMatch(/output changed/);
  });

  it("reports missing and extra names", () => {
    const results = checkGolden(
      expected,
      [version, { name: "am_lint_help", stdout: "", exitCode: 0 }],
      {
        sha256,
        checksumsFile: "benches/golden/checksums.sha256",
      },
    );
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ["am_help.out", false],
      ["am_version", true],
      ["am_lint_help", false],
    ]);
    expect(results[0]?.message).toMatch(/no golden command of this name ran/);
    expect(results[2]?.message).toMatch(/no checksum in benches\/golden\/checksums.sha256/);
  });

  it("keeps diffs short", () => {
    const a = Array.from({ length: 500 }, (_, i) => `line ${i} ${"x".repeat(300)}`).join("\n");
    const b = a.replaceAll("line", "LINE");
    const diff = unifiedDiff(a, b, "big");
    expect(diff.split("\n").length).toBeLessThanOrEqual(40);
    expect(diff.length).toBeLessThanOrEqual(MAX_DIFF_CHARS);
    expect(diff).toMatch(/more diff lines not shown$/);
  });

  it("diffs separate hunks with context", () => {
    const a = Array.from({ length: 30 }, (_, i) => `l${i}`).join("\n") + "\n";
    const b = a.replace("l2\n", "L2\n").replace("l25\n", "");
    const diff = unifiedDiff(a, b, "x").split("\n");
    expect(diff.filter((l) => l.startsWith("@@"))).toEqual([
      "@@ -1,6 +1,6 @@",
      "@@ -23,7 +23,6 @@",
    ]);
  });
});

describe("runGolden", () => {
  it("runs argv through the port, normalises CRLF, caps stdout and records timeouts", async () => {
    const calls: {
      command: readonly string[];
      cwd: string;
      env: Readonly<Record<string, string>>;
    }[] = [];
    const port: ProcessPort = (command, opts) => {
      calls.push({ command, cwd: opts.cwd, env: opts.env });
      if (command[1] === "--big") return ran(0, "é".repeat(10));
      if (command[1] === "--hang") return ran(null, "", true);
      return ran(0, "a\r\nb\r\n");
    };
    const outputs = await runGolden(
      [
        { name: "help", command: ["am", "--help"], env: { B: "2" } },
        { name: "big", command: ["am", "--big"], cwd: "/elsewhere" },
        { name: "hang", command: ["am", "--hang"], timeoutMs: 500 },
      ],
      port,
      { cwd: "/repo", env: { A: "1", B: "1" }, maxStdoutBytes: 5 },
    );
    expect(calls.map((c) => c.cwd)).toEqual(["/repo", "/elsewhere", "/repo"]);
    expect(calls[0]?.env).toEqual({ A: "1", B: "2" });
    expect(outputs[0]).toEqual({ name: "help", stdout: "a\nb\n", exitCode: 0 });
    expect(outputs[1]).toMatchObject({ stdout: "éé", note: "stdout truncated at 5 bytes" });
    expect(outputs[2]).toMatchObject({ exitCode: null, note: "timed out after 0.5 s" });
  });

  it("rejects bad commands before running anything", async () => {
    const port: ProcessPort = () => Promise.reject(new Error("must not run"));
    await expect(runGolden([{ name: "a/b", command: ["x"] }], port, { cwd: "." })).rejects.toThrow(
      /path separator/,
    );
    await expect(runGolden([{ name: "a", command: [] }], port, { cwd: "." })).rejects.toThrow(
      /argv/,
    );
    await expect(
      runGolden(
        [
          { name: "a", command: ["x"] },
          { name: "a", command: ["y"] },
        ],
        port,
        { cwd: "." },
      ),
    ).rejects.toThrow(/twice/);
  });
});
