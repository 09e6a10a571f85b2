// Golden outputs checked against `checksums.sha256` (docs/budgets-and-golden.md). Pure: SHA-256 is a parameter.
//
// The exact bytes hashed for one command are the UTF-8 encoding of `goldenText(stdout, exitCode)`:
// - exit code 0: stdout itself (after the runner's CRLF → LF normalisation), nothing added, so
//   `sha256sum` of a stored `<name>.out` file equals the checksum and hand-kept files still work;
// - any other exit code: stdout followed by the line `\n[benchgate: exit code N]\n`
//   (`[benchgate: killed by a signal or timeout]` when there is no exit code).
// So a changed exit code changes the hash even when stdout is identical. `<name>.out` files
// written by `golden update` should hold exactly this text, so the diff covers the exit code too.
import type { GoldenResult } from "../schemas/report.gen.ts";
import type { ChecksumEntry } from "./checksums.ts";
import type { Sha256 } from "../ports/machine.ts";

export interface GoldenOutput {
  readonly name: string;
  readonly stdout: string;
  /** null: the process was killed (signal or timeout). */
  readonly exitCode: number | null;
  /** Set by the runner, e.g. "timed out after 30 s", "stdout truncated at 1 MiB". */
  readonly note?: string;
}

interface CheckGoldenOptions {
  readonly sha256: Sha256;
  /** Stored expected texts (`<name>.out`) by name, for a diff on mismatch. */
  readonly expectedText?: ReadonlyMap<string, string>;
  /** Shown in messages; default "checksums.sha256". */
  readonly checksumsFile?: string;
}

const MAX_DIFF_LINES = 40;
export const MAX_DIFF_CHARS = 8192;

/** The text whose UTF-8 bytes are hashed (see the header). */
export function goldenText(stdout: string, exitCode: number | null): string {
  if (exitCode === 0) return stdout;
  const status = exitCode === null ? "killed by a signal or timeout" : `exit code ${exitCode}`;
  return `${stdout}\n[benchgate: ${status}]\n`;
}

export function goldenHash(
  output: Pick<GoldenOutput, "stdout" | "exitCode">,
  sha256: Sha256,
): string {
  return sha256(new TextEncoder().encode(goldenText(output.stdout, output.exitCode)));
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

type Op = { kind: " " | "-" | "+"; line: string; a: number; b: number };

/** Line edit script: common prefix/suffix trimmed, LCS on the middle when it is small. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const ops: Op[] = [];
  for (let i = 0; i < start; i += 1) ops.push({ kind: " ", line: a[i] ?? "", a: i, b: i });
  const n = endA - start;
  const m = endB - start;
  if (n * m <= 1_000_000) {
    // lcs[i][j] = LCS length of a[start+i..endA) and b[start+j..endB).
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i -= 1) {
      const row = lcs[i] as Uint32Array;
      const next = lcs[i + 1] as Uint32Array;
      for (let j = m - 1; j >= 0; j -= 1)
        row[j] =
          a[start + i] === b[start + j]
            ? (next[j + 1] as number) + 1
            : Math.max(next[j] as number, row[j + 1] as number);
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[start + i] === b[start + j]) {
        ops.push({ kind: " ", line: a[start + i] ?? "", a: start + i, b: start + j });
        i += 1;
        j += 1;
      } else if (i < n && (j >= m || (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
        ops.push({ kind: "-", line: a[start + i] ?? "", a: start + i, b: start + j });
        i += 1;
      } else {
        ops.push({ kind: "+", line: b[start + j] ?? "", a: start + i, b: start + j });
        j += 1;
      }
    }
  } else {
    for (let i = start; i < endA; i += 1) ops.push({ kind: "-", line: a[i] ?? "", a: i, b: endB });
    for (let j = start; j < endB; j += 1) ops.push({ kind: "+", line: b[j] ?? "", a: endA, b: j });
  }
  for (let i = endA, j = endB; i < a.length; i += 1, j += 1)
    ops.push({ kind: " ", line: a[i] ?? "", a: i, b: j });
  return ops;
}

/**
 * A short unified diff (3 lines of context) of expected → actual, at most `MAX_DIFF_LINES`
 * lines and `MAX_DIFF_CHARS` characters; the rest is summarized in a last line.
 */
export function unifiedDiff(expected: string, actual: string, name: string): string {
  const a = splitLines(expected);
  const b = splitLines(actual);
  const ops = editScript(a, b);
  const context = 3;
  const changed = ops.map((op, i) => (op.kind === " " ? -1 : i)).filter((i) => i >= 0);
  const out: string[] = [`--- expected/${name}`, `+++ actual/${name}`];
  if (changed.length === 0) {
    out.push(
      expected.endsWith("\n") === actual.endsWith("\n")
        ? "(texts differ only in line endings or invisible characters)"
        : "(texts differ only in the final newline)",
    );
    return out.join("\n");
  }
  // Group changes into hunks.
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const last = hunks[hunks.length - 1];
    if (last !== undefined && i - last[1] <= 2 * context) last[1] = i;
    else hunks.push([i, i]);
  }
  const body: string[] = [];
  for (const [first, lastChanged] of hunks) {
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, lastChanged + context);
    const slice = ops.slice(from, to + 1);
    const aCount = slice.filter((o) => o.kind !== "+").length;
    const bCount = slice.filter((o) => o.kind !== "-").length;
    const head = slice[0] as Op;
    body.push(`@@ -${head.a + 1},${aCount} +${head.b + 1},${bCount} @@`);
    for (const op of slice) body.push(`${op.kind}${op.line}`);
  }
  let chars = out.join("\n").length;
  let shown = 0;
  for (const line of body) {
    const clipped = line.length > 200 ? `${line.slice(0, 200)}…` : line;
    if (out.length >= MAX_DIFF_LINES - 1 || chars + clipped.length + 1 > MAX_DIFF_CHARS - 80) break;
    out.push(clipped);
    chars += clipped.length + 1;
    shown += 1;
  }
  if (shown < body.length) out.push(`… ${body.length - shown} more diff lines not shown`);
  return out.join("\n");
}

function short(hash: string): string {
  return hash.slice(0, 12);
}

/**
 * One result per expected name (in file order), then one per extra output. Missing outputs and
 * outputs without a checksum fail: a renamed or mistyped golden command must not pass silently.
 */
export function checkGolden(
  expected: readonly Pick<ChecksumEntry, "name" | "sha256">[],
  actual: readonly GoldenOutput[],
  options: CheckGoldenOptions,
): GoldenResult[] {
  const file = options.checksumsFile ?? "checksums.sha256";
  const outputs = new Map<string, GoldenOutput>();
  const duplicates = new Set<string>();
  for (const output of actual) {
    if (outputs.has(output.name)) duplicates.add(output.name);
    else outputs.set(output.name, output);
  }
  const results: GoldenResult[] = [];
  const expectedNames = new Set<string>();
  for (const { name, sha256 } of expected) {
    expectedNames.add(name);
    const output = outputs.get(name);
    if (output === undefined) {
      results.push({
        name,
        ok: false,
        expected: sha256,
        message: `listed in ${file} but no golden command of this name ran (removed or renamed? run \`benchgate golden update\`)`,
      });
      continue;
    }
    const hash = goldenHash(output, options.sha256);
    const note = output.note === undefined ? "" : ` (${output.note})`;
    if (duplicates.has(name)) {
      results.push({
        name,
        ok: false,
        expected: sha256,
        actual: hash,
        exit_code: output.exitCode,
        message: "two golden commands share this name",
      });
      continue;
    }
    if (hash === sha256) {
      results.push({ name, ok: true, expected: sha256, actual: hash, exit_code: output.exitCode });
      continue;
    }
    const exit =
      output.exitCode === 0
        ? ""
        : output.exitCode === null
          ? "; the command was killed"
          : `; exit code ${output.exitCode}`;
    const result: GoldenResult = {
      name,
      ok: false,
      expected: sha256,
      actual: hash,
      exit_code: output.exitCode,
      message: `output changed: sha256 ${short(hash)}… ≠ expected ${short(sha256)}…${exit}${note}`,
    };
    const stored = options.expectedText?.get(name);
    if (stored !== undefined) {
      let diff = unifiedDiff(stored, goldenText(output.stdout, output.exitCode), name);
      if (goldenHash({ stdout: stored, exitCode: 0 }, options.sha256) !== sha256)
        diff = `(the stored ${name}.out does not match ${file} either; diff against it)\n${diff}`;
      result.diff = diff.length > MAX_DIFF_CHARS ? diff.slice(0, MAX_DIFF_CHARS) : diff;
    }
    results.push(result);
  }
  for (const output of outputs.values()) {
    if (expectedNames.has(output.name)) continue;
    results.push({
      name: output.name,
      ok: false,
      actual: goldenHash(output, options.sha256),
      exit_code: output.exitCode,
      message: `no checksum in ${file}: run \`benchgate golden update\` to record it`,
    });
  }
  return results;
}
