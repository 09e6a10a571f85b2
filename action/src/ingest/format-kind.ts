// What one input format declares so that `benchgate ingest`, its help, the "it looks like …" hint
// and `benchgate --help` can all be derived from ./registry.ts. A format is one folder under
// ingest/ holding its adapter, its tests and one object of this shape; docs/formats.md says how
// to add one.
import type { FileReader } from "../ports/files.ts";
import type { BenchSummary, Benchmark } from "../schemas/summary.gen.ts";

/** What some format's signature says `data` is, with the command to use; or undefined. */
export type FormatGuess = (data: unknown) => string | undefined;

/**
 * How telling a signature is. The guess tries every "marker" first (a field only that format
 * writes), then every "shape" (nested structure), then "fields" (top-level names only), so a
 * loose signature never hides a telling one; within a strength, formats go in registry order.
 */
export type SignatureStrength = "marker" | "shape" | "fields";

/** One way a file of this format can be recognized when it is handed to another format. */
interface Signature {
  readonly strength: SignatureStrength;
  /** What a matching file is, e.g. "hyperfine --export-json output". */
  readonly is: string;
  readonly matches: (data: unknown) => boolean;
}

interface FormatKindBase<Name extends string> {
  /** The KIND argument of `benchgate ingest`. */
  readonly name: Name;
  /** How `benchgate --help` names the tool, when not by `name` (e.g. "Criterion"). */
  readonly title?: string;
  /** `benchgate ingest --help`: what the input is, one entry per line (the first line beside the kind). */
  readonly help: readonly string[];
  readonly signatures: readonly Signature[];
  /**
   * What `--name` sets, for `benchgate ingest --help` (a file of one benchmark that carries no
   * usable id of its own). A kind without it refuses `--name`.
   */
  readonly nameOption?: string;
  /**
   * The `source` of its benchmarks, when not `name` (gab's are "github-action-benchmark"). The
   * summary schema's `source` enum is generated from these (scripts/summary-sources.ts).
   */
  readonly source?: string;
}

/** What an adapter is given besides the parsed JSON or the text. */
interface ParseContext {
  /** --suite, when given; a format picks its own default otherwise. */
  readonly suite: string | undefined;
  /** --name, when given (only to a kind with `nameOption`). */
  readonly name: string | undefined;
  /** What another format would call this file: for errors on a file given to the wrong kind. */
  readonly guess: FormatGuess;
}

/** What a kind read: its benchmarks, and the summary fields it carries through (a summary.json does). */
export interface FormatRead {
  readonly benchmarks: Benchmark[];
  readonly passthrough?: BenchSummary;
  /** `generator.tool_version`, when the file names the tool that wrote it (and no passthrough does). */
  readonly toolVersion?: string;
}

/**
 * One JSON file in. `ingest` reads it (byte, character and depth caps, no `__proto__` keys) and
 * checks that ids are unique; the adapter is pure.
 */
export interface FileFormatKind<Name extends string = string> extends FormatKindBase<Name> {
  readonly input: "file";
  /** Largest file read, in bytes, when not the cap of every input file (ingest's MAX_INPUT_BYTES). */
  readonly maxBytes?: number;
  parse(data: unknown, source: string, context: ParseContext): FormatRead;
}

interface TreeOptions {
  /** --baseline: given exactly when the kind declares a `baseline` (`ingest` checks). */
  readonly baseline?: string;
  readonly suite?: string;
  readonly side: string;
  readonly round: number;
}

/** One of several baselines read in one walk, with the side and round its name gives. */
interface BaselineRead extends FormatRead {
  readonly baseline: string;
  readonly side: string;
  readonly round: number;
}

/**
 * A folder in, which the kind walks through the reader. With `baseline`, the folder holds
 * several named runs (Criterion's baselines) and `--baseline` picks one; without, it holds one
 * run and `--baseline` is refused.
 */
export interface DirectoryFormatKind<Name extends string = string> extends FormatKindBase<Name> {
  readonly input: "directory";
  /** What the baseline name is, for the error when `--baseline` is missing. */
  readonly baseline?: string;
  /** The benchmarks (`ingest` checks their ids are unique and makes the summary). */
  read(dir: string, options: TreeOptions, reader: FileReader): Promise<FormatRead>;
  /**
   * `--baselines GLOB` (only a kind with `baseline`): every baseline whose name matches, in one
   * walk of the folder, in the order their summaries are written.
   */
  readBaselines?(
    dir: string,
    options: { readonly baselines: string; readonly suite?: string },
    reader: FileReader,
  ): Promise<readonly BaselineRead[]>;
}

/**
 * One text file in (a tool's own line format, not JSON). `ingest` reads it with the kind's byte
 * cap and checks that ids are unique; the adapter is pure and checks every line it uses.
 */
export interface TextFormatKind<Name extends string = string> extends FormatKindBase<Name> {
  readonly input: "text";
  /** Largest file read, in bytes. */
  readonly maxBytes: number;
  parseText(text: string, source: string, context: ParseContext): FormatRead;
}

export type FormatKind<Name extends string = string> =
  FileFormatKind<Name> | DirectoryFormatKind<Name> | TextFormatKind<Name>;

/** " (it looks like …)" or "": the end of an adapter's "not a … file" error. */
export function lookAlike(guess: FormatGuess, data: unknown): string {
  const guessed = guess(data);
  return guessed === undefined ? "" : ` (it looks like ${guessed})`;
}
