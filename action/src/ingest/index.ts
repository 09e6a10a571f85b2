// `benchgate ingest KIND PATH`: one adapter per source format (./registry.ts), one normalized
// summary.json out. Adapters are pure (parsed JSON or text in, Benchmarks out); only this module
// and directory formats (the Criterion and gungraun tree walkers) read files, through the
// FileReader port passed in. The result is always validated against
// schemas/summary.v1.schema.json before it is returned.
import { InputError } from "../errors.ts";
import type { FileReader } from "../ports/files.ts";
import type { BenchSummary } from "../schemas/summary.gen.ts";
import { validateSummary } from "../schemas/validate-document.ts";
import { guessFormat } from "./format-hint.ts";
import type { FormatKind, FormatRead } from "./format-kind.ts";
import { nameProblem } from "./benchmark-name.ts";
import { IdRegistry } from "./json-guards.ts";
import { MiB, readJson } from "./read-json.ts";
import { FORMAT_KINDS } from "./registry.ts";

export type IngestKind = (typeof FORMAT_KINDS)[number]["name"];
export const INGEST_KINDS: readonly IngestKind[] = FORMAT_KINDS.map((k) => k.name);

interface IngestOptions {
  /**
   * Criterion only (required there): the baseline directory to read. File and text kinds ignore
   * it; a directory kind without baselines (gungraun) refuses it.
   */
  readonly baseline?: string;
  /**
   * The id of a file's one benchmark, for kinds that declare `nameOption` (cachegrind, oha, k6, vegeta); every
   * other kind refuses it. 1–256 characters, no control characters.
   */
  readonly name?: string;
  /** Suite name for every benchmark; default: the source kind (or the file's own suite). */
  readonly suite?: string;
  readonly side: string;
  readonly round: number;
  /** benchgate's version for `generator.version`; default "0.0.0". */
  readonly version?: string;
}

/** Largest single input file of a file format read, unless the kind sets its own `maxBytes`. */
const MAX_INPUT_BYTES = 64 * MiB;

export function isIngestKind(value: string): value is IngestKind {
  return (INGEST_KINDS as readonly string[]).includes(value);
}

/** The declaration of one format: its help, its input and its adapter. */
export function formatKind(kind: IngestKind): FormatKind<IngestKind> {
  const found = FORMAT_KINDS.find((k) => k.name === kind);
  if (found === undefined) throw new Error(`no ingest format named ${kind}`);
  return found;
}

function checkSuite(suite: string | undefined): void {
  if (suite !== undefined && (suite.trim() === "" || suite.length > 256)) {
    throw new InputError(
      `invalid suite name ${JSON.stringify(suite.slice(0, 64))} (1–256 characters)`,
    );
  }
}

function checkOptions(options: IngestOptions): void {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(options.side)) {
    throw new InputError(
      `invalid side ${JSON.stringify(options.side)} (1–64 letters, digits, ".", "_" or "-")`,
    );
  }
  if (!Number.isInteger(options.round) || options.round < 1 || options.round > 10_000) {
    throw new InputError(`invalid round ${String(options.round)} (an integer from 1 to 10000)`);
  }
  checkSuite(options.suite);
  const nameIssue = options.name === undefined ? undefined : nameProblem(options.name);
  if (options.name !== undefined && nameIssue !== undefined) {
    throw new InputError(
      `invalid benchmark name ${JSON.stringify(options.name.slice(0, 64))}: ${nameIssue} (1–256 characters, no control characters)`,
    );
  }
}

/** The option checks that depend on the kind: --baseline and --name where they mean something. */
function checkKindOptions(format: FormatKind, inputPath: string, options: IngestOptions): void {
  if (format.input === "directory") {
    if (format.baseline !== undefined && options.baseline === undefined) {
      throw new InputError(`ingest ${format.name} needs a baseline name (--baseline NAME)`, {
        source: inputPath,
      });
    }
    if (format.baseline === undefined && options.baseline !== undefined) {
      throw new InputError(
        `ingest ${format.name} reads one run and takes no baseline name (--baseline)`,
        { source: inputPath },
      );
    }
  }
  if (options.name !== undefined && format.nameOption === undefined) {
    const named = FORMAT_KINDS.filter((k) => k.nameOption !== undefined).map((k) => k.name);
    throw new InputError(
      `ingest ${format.name} takes no benchmark name (--name is for ${named.join(", ")})`,
    );
  }
}

function generator(
  inputPath: string,
  options: IngestOptions,
  toolVersion?: string,
): NonNullable<BenchSummary["generator"]> {
  const input = inputPath.length > 1024 ? `${inputPath.slice(0, 1023)}…` : inputPath;
  const result: NonNullable<BenchSummary["generator"]> = {
    name: "benchgate",
    version: options.version ?? "0.0.0",
    input,
  };
  if (toolVersion !== undefined) result.tool_version = toolVersion;
  return result;
}

/** The summary of what a kind read, with the passthrough's fields (a summary.json's). */
function toSummary(read: FormatRead, inputPath: string, options: IngestOptions): BenchSummary {
  const { benchmarks, passthrough } = read;
  // Adapters reject duplicates at their JSON path; this guards the passthrough and future adapters.
  const ids = new IdRegistry();
  benchmarks.forEach((b, i) => ids.add(b.id, { source: inputPath, path: `/benchmarks/${i}/id` }));
  return {
    ...passthrough,
    schema_version: 1,
    side: options.side,
    round: options.round,
    generator: generator(
      inputPath,
      options,
      passthrough?.generator?.tool_version ?? read.toolVersion,
    ),
    benchmarks,
  };
}

/**
 * Reads one tool's output and returns a validated summary for one side and round.
 * `inputPath` is a folder for a directory format ("criterion", "gungraun"), else one file. Every problem
 * with the input is an InputError naming the file (and JSON path) and what is wrong.
 */
export async function ingest(
  kind: IngestKind,
  inputPath: string,
  options: IngestOptions,
  reader: FileReader,
): Promise<BenchSummary> {
  checkOptions(options);
  const format = formatKind(kind);
  checkKindOptions(format, inputPath, options);
  let read: FormatRead;
  if (format.input === "directory") {
    read = await format.read(
      inputPath,
      {
        side: options.side,
        round: options.round,
        ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
        ...(options.suite === undefined ? {} : { suite: options.suite }),
      },
      reader,
    );
  } else {
    const context = { suite: options.suite, name: options.name, guess: guessFormat };
    if (format.input === "text") {
      const text = await reader.readText(inputPath, format.maxBytes);
      read = format.parseText(text, inputPath, context);
    } else {
      const data = await readJson(reader, inputPath, format.maxBytes ?? MAX_INPUT_BYTES);
      read = format.parse(data, inputPath, context);
    }
  }
  const summary = toSummary(read, inputPath, options);
  if (summary.benchmarks.length === 0)
    throw new InputError("no benchmarks found", { source: inputPath });
  return validateSummary(summary, inputPath);
}

/** The kinds that read several baselines in one walk (`--baselines`). */
export const MULTI_BASELINE_KINDS: readonly IngestKind[] = FORMAT_KINDS.filter(
  (k) => k.input === "directory" && "readBaselines" in k,
).map((k) => k.name);

interface BaselinesOptions {
  /** `--baselines`: a glob over the baseline names (`*` and `?`). */
  readonly baselines: string;
  readonly suite?: string;
  readonly version?: string;
}

/** One baseline's validated summary, from ingestBaselines. */
interface BaselineSummary {
  readonly baseline: string;
  readonly summary: BenchSummary;
}

/**
 * `ingest criterion DIR --baselines GLOB`: every matching baseline of a folder that holds several,
 * read in one walk, each a validated summary exactly as `ingest` makes it for that baseline with
 * the side and round its name gives (the kind decides them: `base-3` is side base, round 3).
 */
export async function ingestBaselines(
  kind: IngestKind,
  inputPath: string,
  options: BaselinesOptions,
  reader: FileReader,
): Promise<BaselineSummary[]> {
  const format = formatKind(kind);
  if (format.input !== "directory" || format.readBaselines === undefined) {
    throw new InputError(
      `ingest ${kind} reads no baselines; --baselines is for ${MULTI_BASELINE_KINDS.join(", ")}`,
    );
  }
  checkSuite(options.suite);
  const reads = await format.readBaselines(
    inputPath,
    {
      baselines: options.baselines,
      ...(options.suite === undefined ? {} : { suite: options.suite }),
    },
    reader,
  );
  return reads.map((read) => {
    const each: IngestOptions = {
      side: read.side,
      round: read.round,
      ...(options.suite === undefined ? {} : { suite: options.suite }),
      ...(options.version === undefined ? {} : { version: options.version }),
    };
    checkOptions(each);
    const summary = toSummary(read, inputPath, each);
    if (summary.benchmarks.length === 0)
      throw new InputError(`no benchmarks found in baseline ${read.baseline}`, {
        source: inputPath,
      });
    return { baseline: read.baseline, summary: validateSummary(summary, inputPath) };
  });
}
