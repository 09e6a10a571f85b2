// The hostile-input corpus: every input adapter of the CLI crossed with every way a file can be
// broken, by accident or on purpose. Each adapter names a valid input from the fixtures and the
// places a corruption hits (a timing field, a name field); each corruption turns the valid bytes
// into broken ones, or puts something that is not a regular file where the input should be.
// action/test/hostile-inputs.test.ts materializes every pair in a temporary folder and runs the
// CLI on it: every case must exit 2 with one line and leave no output behind (docs/cli.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../support/cli.ts";

const FIXTURES = path.join(ROOT, "action/test/fixtures");
const fixture = (file: string): Buffer => readFileSync(path.join(FIXTURES, file));

/** Where a corruption lands in an adapter's input: a file of the case folder and a JSON key. */
interface Target {
  readonly file: string;
  readonly key: string;
}

export interface Adapter {
  readonly title: string;
  /** The case folder's valid files, relative path → bytes. */
  readonly files: ReadonlyMap<string, Buffer>;
  /** A numeric field that holds a measurement (the first one in the file is hit). */
  readonly number: Target;
  /** A string field that names a benchmark (the first one in the file is hit). */
  readonly name: Target;
  /** A valid input of another format, for "wrong schema". */
  readonly foreign: Buffer;
  /** The CLI arguments for a case folder, writing to `out`. */
  argv(dir: string, out: string): string[];
}

const CRITERION_BENCH = "criterion-0.5.1/flat/fnv1a/65536";
const criterionFiles = new Map<string, Buffer>(
  ["benchmark.json", "estimates.json", "sample.json", "tukey.json"].map((f) => [
    `target/criterion/flat/fnv1a/65536/base/${f}`,
    fixture(`${CRITERION_BENCH}/base/${f}`),
  ]),
);
const CRITERION_DIR = "target/criterion/flat/fnv1a/65536/base";

const summary = fixture("ingest/summary.json");
const hyperfine = fixture("hyperfine-1.15/basic.json");

const ingestFile =
  (kind: string, file: string) =>
  (dir: string, out: string): string[] => ["ingest", kind, path.join(dir, file), "-o", out];

export const ADAPTERS: readonly Adapter[] = [
  {
    title: "criterion",
    files: criterionFiles,
    number: { file: `${CRITERION_DIR}/estimates.json`, key: "point_estimate" },
    name: { file: `${CRITERION_DIR}/benchmark.json`, key: "full_id" },
    foreign: hyperfine,
    argv: (dir, out) => [
      "ingest",
      "criterion",
      path.join(dir, "target/criterion"),
      "--baseline",
      "base",
      "-o",
      out,
    ],
  },
  {
    title: "hyperfine",
    files: new Map([["input.json", hyperfine]]),
    number: { file: "input.json", key: "mean" },
    name: { file: "input.json", key: "command" },
    foreign: fixture("critcmp-0.1.8/base.json"),
    argv: ingestFile("hyperfine", "input.json"),
  },
  {
    title: "critcmp",
    files: new Map([["input.json", fixture("critcmp-0.1.8/base.json")]]),
    number: { file: "input.json", key: "point_estimate" },
    name: { file: "input.json", key: "full_id" },
    foreign: hyperfine,
    argv: ingestFile("critcmp", "input.json"),
  },
  {
    title: "custom harness",
    files: new Map([["input.json", fixture("ingest/harness-archive.json")]]),
    number: { file: "input.json", key: "p50_ms" },
    name: { file: "input.json", key: "name" },
    foreign: hyperfine,
    argv: ingestFile("custom", "input.json"),
  },
  {
    title: "custom summary",
    files: new Map([["input.json", summary]]),
    number: { file: "input.json", key: "median" },
    name: { file: "input.json", key: "id" },
    foreign: hyperfine,
    argv: ingestFile("custom", "input.json"),
  },
  {
    title: "gab",
    files: new Map([["input.json", fixture("ingest/gab-bigger.json")]]),
    number: { file: "input.json", key: "value" },
    name: { file: "input.json", key: "name" },
    foreign: hyperfine,
    argv: ingestFile("gab", "input.json"),
  },
  {
    title: "compare (head summary)",
    files: new Map([
      ["base.json", summary],
      [
        "head.json",
        Buffer.from(summary.toString("utf8").replace('"side": "base"', '"side": "head"')),
      ],
    ]),
    number: { file: "head.json", key: "median" },
    name: { file: "head.json", key: "id" },
    foreign: hyperfine,
    argv: (dir, out) => [
      "compare",
      "--base",
      path.join(dir, "base.json"),
      "--head",
      path.join(dir, "head.json"),
      "--json",
      out,
      "--quiet",
    ],
  },
];

/** What a corruption does to an adapter's case folder. */
export type Corruption =
  | {
      readonly name: string;
      readonly kind: "bytes";
      readonly target: "number" | "name";
      readonly apply: (
        bytes: Buffer,
        at: { readonly key: string; readonly foreign: Buffer },
      ) => Buffer;
    }
  /** The number target's path holds something that is not a regular file. */
  | { readonly name: string; readonly kind: "symlink" | "fifo" | "directory" };

const text = (bytes: Buffer): string => bytes.toString("utf8");

/**
 * Rewrites the first `"key": <number>` of the text, given the part up to the value and the value;
 * the corpus fails loudly if there is none.
 */
function editNumber(
  bytes: Buffer,
  key: string,
  edit: (head: string, value: string) => string,
): Buffer {
  const pattern = new RegExp(`("${key}"\\s*:\\s*)(-?[0-9][0-9.eE+-]*)`);
  const s = text(bytes);
  if (!pattern.test(s)) throw new Error(`corpus: no number field "${key}"`);
  return Buffer.from(s.replace(pattern, (_, head: string, value: string) => edit(head, value)));
}

/** Replaces the first `"key": <number>` of the text with `"key": <by>` (by is raw JSON). */
const replaceNumber = (bytes: Buffer, key: string, by: string): Buffer =>
  editNumber(bytes, key, (head) => `${head}${by}`);

/** Replaces the first `"key": "<string>"` of the text with `"key": <by>` (by is raw JSON). */
function replaceString(bytes: Buffer, key: string, by: Buffer): Buffer {
  const s = text(bytes);
  const match = new RegExp(`"${key}"\\s*:\\s*"(?:[^"\\\\]|\\\\.)*"`).exec(s);
  if (match === null) throw new Error(`corpus: no string field "${key}"`);
  return Buffer.concat([
    Buffer.from(`${s.slice(0, match.index)}"${key}": `),
    by,
    Buffer.from(s.slice(match.index + match[0].length)),
  ]);
}

/** The field given twice in its object: the second value is a very different one. */
const duplicateKey = (bytes: Buffer, key: string): Buffer =>
  editNumber(bytes, key, (head, value) => `${head}${value}, "${key}": 999999`);

export const CORRUPTIONS: readonly Corruption[] = [
  {
    name: "truncated",
    kind: "bytes",
    target: "number",
    apply: (b) => b.subarray(0, Math.floor(b.length / 2)),
  },
  { name: "empty", kind: "bytes", target: "number", apply: () => Buffer.alloc(0) },
  {
    name: "NaN",
    kind: "bytes",
    target: "number",
    apply: (b, { key: k }) => replaceNumber(b, k, "NaN"),
  },
  {
    name: "infinite (1e999)",
    kind: "bytes",
    target: "number",
    apply: (b, { key: k }) => replaceNumber(b, k, "1e999"),
  },
  {
    name: "negative",
    kind: "bytes",
    target: "number",
    apply: (b, { key: k }) => replaceNumber(b, k, "-5"),
  },
  {
    name: "a string for a number",
    kind: "bytes",
    target: "number",
    apply: (b, { key: k }) => replaceNumber(b, k, '"12"'),
  },
  {
    name: "duplicate key",
    kind: "bytes",
    target: "number",
    apply: (b, { key }) => duplicateKey(b, key),
  },
  {
    name: "prototype key",
    kind: "bytes",
    target: "number",
    apply: (b) => {
      const s = text(b);
      const at = s.indexOf("{");
      return Buffer.from(`${s.slice(0, at + 1)}"__proto__": {"polluted": 1}, ${s.slice(at + 1)}`);
    },
  },
  {
    name: "deep nesting",
    kind: "bytes",
    target: "number",
    apply: (b, { key: k }) => replaceNumber(b, k, `${"[".repeat(100_000)}1${"]".repeat(100_000)}`),
  },
  {
    name: "huge name",
    kind: "bytes",
    target: "name",
    apply: (b, { key: k }) =>
      replaceString(b, k, Buffer.from(JSON.stringify("x".repeat(2_000_000)))),
  },
  {
    name: "invalid UTF-8",
    kind: "bytes",
    target: "name",
    apply: (b, { key: k }) =>
      replaceString(b, k, Buffer.from([0x22, 0x61, 0xc3, 0x28, 0xff, 0x22])),
  },
  {
    name: "byte-order mark",
    kind: "bytes",
    target: "number",
    apply: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]),
  },
  { name: "not an object", kind: "bytes", target: "number", apply: () => Buffer.from("42\n") },
  { name: "wrong schema", kind: "bytes", target: "number", apply: (_, { foreign }) => foreign },
  { name: "symlink", kind: "symlink" },
  { name: "FIFO", kind: "fifo" },
  { name: "directory", kind: "directory" },
];
