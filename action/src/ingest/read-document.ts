// Reading a benchgate document from a file: byte cap before reading, the strict parser's size,
// depth and key checks before JSON.parse (or strict YAML for benchgate.yml), then the schema.
// One InputError naming the file on any failure.
import { type CST, Lexer, Parser, parseDocument, YAMLError } from "yaml";
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
} from "../schemas/validate-document.ts";
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
  // shard.json lists every unit of the run (about 180 bytes each with 30-character ids): 32 MiB
  // holds the schema's 100,000 units of such names; 1 MiB stopped at about 5,700.
  shard: 32 * 1024 * 1024,
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

/** How deep collections may nest in benchgate.yml: as in every JSON input (readJsonFile). */
const MAX_YAML_DEPTH = 64;

/** The lexer's zero-width tokens: document, scalar and flow-error markers. */
const LEXER_MARKERS: ReadonlySet<string> = new Set(["\u0002", "\u0018", "\u001f"]);

/**
 * The offset of the first `[` or `{` nested more than MAX_YAML_DEPTH deep, by yaml's lexer, a
 * loop that stops there: cheap however deep the file goes. Quoted, block and plain scalars are
 * single tokens, so a bracket inside text is not counted.
 */
function flowTooDeep(text: string): number | undefined {
  let depth = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === "[" || token === "{") {
      if (++depth > MAX_YAML_DEPTH) return offset;
    } else if (token === "]" || token === "}") depth = Math.max(0, depth - 1);
    if (!LEXER_MARKERS.has(token)) offset += token.length;
  }
  return undefined;
}

/**
 * The offset of a collection, block or flow, nested more than MAX_YAML_DEPTH deep, walked
 * level by level over yaml's syntax tree (its parser keeps an explicit stack).
 */
function collectionTooDeep(text: string): number | undefined {
  const queue: { token: CST.Token | null | undefined; depth: number }[] = [];
  for (const token of new Parser().parse(text)) queue.push({ token, depth: 0 });
  for (let i = 0; i < queue.length; i++) {
    const { token, depth } = queue[i] as (typeof queue)[number];
    if (token?.type === "document") queue.push({ token: token.value, depth });
    if (
      token?.type !== "block-map" &&
      token?.type !== "block-seq" &&
      token?.type !== "flow-collection"
    )
      continue;
    if (depth >= MAX_YAML_DEPTH) return token.offset;
    for (const item of token.items)
      queue.push({ token: item.key, depth: depth + 1 }, { token: item.value, depth: depth + 1 });
  }
  return undefined;
}

/**
 * Where benchgate.yml nests deeper than MAX_YAML_DEPTH, as "line L, column C", or undefined.
 * yaml's composer recurses once per level: a flow some thousand levels deep, or a block mapping
 * as deep, overflowed the stack and came back as "Maximum call stack size exceeded" at a column
 * that changed from run to run. The flows are checked first, so the tree is never built of a
 * flow deeper than the bound.
 */
function tooDeep(text: string): string | undefined {
  // Past a flow too deep, nothing can matter: the first place too deep is before it, so the
  // tree is built of the text up to there (at most 65 brackets deep), and blames that place.
  const flow = flowTooDeep(text);
  const offset =
    flow === undefined
      ? collectionTooDeep(text)
      : (collectionTooDeep(text.slice(0, flow + 1)) ?? flow);
  if (offset === undefined) return undefined;
  const before = text.slice(0, offset);
  return `line ${before.split("\n").length}, column ${offset - before.lastIndexOf("\n")}`;
}

/**
 * Parses YAML (or JSON, a YAML subset) with alias expansion bounded against "billion laughs"
 * and collections nested at most MAX_YAML_DEPTH deep.
 * A warning (an unknown tag such as `!foo`, an unsupported %YAML version) is an error too: the
 * file is strict, and a value the parser could not resolve is not what its author meant.
 */
export function parseYamlText(text: string, source: string): unknown {
  const deep = tooDeep(text);
  if (deep !== undefined)
    throw new InputError(
      `invalid YAML (nested more than ${MAX_YAML_DEPTH} levels deep at ${deep})`,
      { source },
    );
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
