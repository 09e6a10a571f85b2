// `node scripts/check-architecture.ts`: reads every source file under action/src (not tests, not
// generated code), lists its relative imports, and fails with one line per violation of the
// rules in scripts/architecture-rules.ts: no import cycles, the CLI and the action never import
// each other, and every import runs down the folder ranks below.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { checkArchitecture, describeViolation, type ImportGraph } from "./architecture-rules.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = path.join(ROOT, "action/src");

/**
 * The folder ranks: a folder (or a file at the top of action/src) imports only layers of a lower
 * rank, or itself. Same rank means side by side, so two folders of one rank do not import each
 * other either.
 */
const RANKS: readonly { readonly rank: number; readonly layers: readonly string[] }[] = [
  // The error types, the version, the glob matcher and numbers as text (the core's reasons and
  // render's tables share one rule for percentages): used everywhere, importing nothing.
  { rank: 0, layers: ["errors.ts", "version.ts", "glob-match.ts", "number-text.ts"] },
  // The documents' types and validators, generated from schemas/*.json: the vocabulary every
  // layer speaks.
  { rank: 1, layers: ["schemas"] },
  // The port interfaces, no implementations: they name schema types (a summary's environment),
  // and everything that has side effects receives them as parameters.
  { rank: 2, layers: ["ports"] },
  // Pure building blocks: the statistics (core), reading tools' output and our own documents
  // through the file port (ingest), Markdown and
  // text (render), GitHub's events, comments and checks as data (github), the machine
  // fingerprint (environment), the runner policy. Side by side: none needs another.
  {
    rank: 3,
    layers: ["core", "ingest", "render", "github", "environment", "runner-policy"],
  },
  // Features built on those blocks, each on its own: budgets, golden checks, smells, the config
  // file, baselines, `init`'s files, and running other programs as named steps (exec: a step
  // with a timeout and a log, and the git commands the runner and the history share).
  {
    rank: 4,
    layers: ["budgets", "golden", "smells", "config", "baselines", "init", "exec"],
  },
  // The history: its records carry each benchmark's budget line (budgets/parse-budget.ts).
  { rank: 5, layers: ["history"] },
  // The history site: its pages show the history's change points (history/change-points.ts).
  { rank: 6, layers: ["site"] },
  // The two workflows that drive features: running benchmarks through the process port
  // (runner), and answering PR commands through the GitHub port (bot).
  { rank: 7, layers: ["runner", "bot"] },
  // plan -> measure -> decide -> publish: the one gate both front ends call.
  { rank: 8, layers: ["gate"] },
  // The Node implementations of the ports: only the entry points pick them, so nothing that is
  // tested with fakes can reach the real file system, processes or network.
  { rank: 9, layers: ["io"] },
  // The front ends, thin adapters over the gate: side by side and never importing each other.
  { rank: 10, layers: ["cli", "action"] },
];

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) files.push(...sourceFiles(full));
    else if (name.endsWith(".ts") && !/\.(test|gen|d)\.ts$/.test(name)) files.push(full);
  }
  return files;
}

/** The file a relative import names, if it is a file under action/src. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  const target = path.resolve(path.dirname(from), specifier);
  const candidates = [target, `${target}.ts`, path.join(target, "index.ts")];
  const found = candidates.find((c) => statSync(c, { throwIfNoEntry: false })?.isFile() === true);
  if (found === undefined || path.relative(SOURCE, found).startsWith("..")) return undefined;
  return found;
}

function importGraph(): ImportGraph {
  const graph = new Map<string, string[]>();
  const key = (file: string): string => path.relative(SOURCE, file).split(path.sep).join("/");
  for (const file of sourceFiles(SOURCE)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((imported) => resolveImport(file, imported.fileName))
      .filter((target): target is string => target !== undefined);
    graph.set(key(file), targets.map(key));
  }
  return graph;
}

const violations = checkArchitecture(importGraph(), {
  ranks: new Map(RANKS.flatMap(({ rank, layers }) => layers.map((l) => [l, rank] as const))),
  apart: [["cli", "action"]],
});
for (const v of violations)
  process.stdout.write(`${describeViolation(v, (file) => `action/src/${file}`)}\n`);
if (violations.length > 0) {
  process.stderr.write(`architecture: ${violations.length} violation(s)\n`);
  process.exit(1);
}
process.stderr.write("architecture: no cycles, no upward imports\n");
