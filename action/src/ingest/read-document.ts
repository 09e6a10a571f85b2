// Reading a benchgate document from a file: byte cap before reading, the strict parser's size,
// depth and key checks before JSON.parse (or strict YAML for benchgate.yml), then the schema.
// One InputError naming the file on any failure.
import { parseDocument, YAMLError } from "yaml";
import { InputError } from "../errors.ts";
import type { FileReader } from "../ports/files.ts";
import { parseJsonText } from "../schemas/parse-json.ts";
import {
  validateConfig,
  validateHistory,
  validateShard,
  validateReport,
  validateSummary,
  type DocumentKind,
} from "../schemas/validate.ts";
import type { BenchSummary } from "../schemas/summary.gen.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import type { BenchShard } from "../schemas/shard.gen.ts";

/** Caps per document kind, in bytes. A summary of 20,000 benchmarks × 100 samples fits in 64 MiB. */
export const MAX_BYTES: Readonly<Record<DocumentKind, number>> = Object.freeze({
  summary: 64 * 1024 * 1024,
  report: 64 * 1024 * 1024,
  config: 1024 * 1024,
  // 200 benchmarks × 1,000 commits is about 10 MiB; room for far larger suites and longer pasts.
  history: 256 * 1024 * 1024,
  shard: 1024 * 1024,
});

export async function readJsonFile(
  reader: FileReader,
  file: string,
  maxBytes: number,
): Promise<unknown> {
  const text = await reader.readText(file, maxBytes);
  return parseJsonText(text, file, { maxChars: maxBytes, maxDepth: 64 });
}

export async function readSummaryFile(reader: FileReader, file: string): Promise<BenchSummary> {
  return validateSummary(await readJsonFile(reader, file, MAX_BYTES.summary), file);
}

export async function readHistoryFile(reader: FileReader, file: string): Promise<BenchHistory> {
  return validateHistory(await readJsonFile(reader, file, MAX_BYTES.history), file);
}

export async function readShardFile(reader: FileReader, file: string): Promise<BenchShard> {
  return validateShard(await readJsonFile(reader, file, MAX_BYTES.shard), file);
}

export async function readReportFile(reader: FileReader, file: string): Promise<BenchReport> {
  return validateReport(await readJsonFile(reader, file, MAX_BYTES.report), file);
}

/**
 * How benchgate.yml is parsed: strictly, keys unique, and nothing printed by the library (its
 * warnings would reach stderr as Node warnings; they are errors here, see parseYamlText).
 */
const YAML_OPTIONS = Object.freeze({
  uniqueKeys: true,
  strict: true,
  prettyErrors: true,
  logLevel: "error",
} as const);

/** The first line of a YAML error or warning: "<problem> at line L, column C". */
function yamlProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (
    (message.split("\n")[0] ?? "parse error")
      .replace(/:$/, "")
      // The library's advice to its own callers means nothing to someone editing benchgate.yml.
      .replace(
        "multiple documents; please use YAML.parseAllDocuments()",
        "more than one document (---)",
      )
  );
}

/**
 * Parses YAML (or JSON, a YAML subset) with alias expansion bounded against "billion laughs".
 * A warning (an unknown tag such as `!foo`, an unsupported %YAML version) is an error too: the
 * file is strict, and a value the parser could not resolve is not what its author meant.
 */
export function parseYamlText(text: string, source: string): unknown {
  let problem: YAMLError | undefined;
  try {
    const doc = parseDocument(text, YAML_OPTIONS);
    problem = doc.errors[0] ?? doc.warnings[0];
    if (problem === undefined) return doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (error) {
    throw new InputError(`invalid YAML (${yamlProblem(error)})`, { source }, { cause: error });
  }
  throw new InputError(`invalid YAML (${yamlProblem(problem)})`, { source }, { cause: problem });
}

export async function readConfigFile(reader: FileReader, file: string): Promise<BenchgateConfig> {
  const text = await reader.readText(file, MAX_BYTES.config);
  return validateConfig(parseYamlText(text, file), file);
}
