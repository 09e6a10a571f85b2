// `node scripts/check-exports.ts`: every export of a source file under action/src (not tests,
// not generated code) must be imported by some other file — product code, a test, a bench or a
// script. An export nobody imports widens a module's surface for nothing and hides dead code
// (noUnusedLocals cannot see an exported function no one calls); dropping its `export` lets the
// typechecker say whether the file itself still uses it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = path.join(ROOT, "action/src");
/** Where importers live: the product, its tests, the history page's browser code, bench, scripts. */
const IMPORTERS = ["action/src", "action/test", "action/site", "bench", "scripts"];

function tsFiles(dir: string): string[] {
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`))
    .sort();
}

const isProduct = (file: string): boolean =>
  file.startsWith(SOURCE + path.sep) && !/\.(test|gen)\.ts$/.test(file);

const exported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a file exports, by its own declarations and by `export { … }`. */
function exportsOf(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause !== undefined) {
      if (ts.isNamedExports(statement.exportClause))
        names.push(...statement.exportClause.elements.map((e) => e.name.text));
    } else if (exported(statement)) {
      if (ts.isVariableStatement(statement))
        for (const d of statement.declarationList.declarations)
          if (ts.isIdentifier(d.name)) names.push(d.name.text);
      if (
        (ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement)) &&
        statement.name !== undefined
      )
        names.push(statement.name.text);
    }
  }
  return names;
}

/** The file a relative module specifier names, if it is one. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = path.resolve(path.dirname(from), specifier);
  return statSync(target, { throwIfNoEntry: false })?.isFile() === true ? target : undefined;
}

const parsed = new Map<string, ts.SourceFile>();
for (const file of IMPORTERS.flatMap((dir) => tsFiles(path.join(ROOT, dir))))
  parsed.set(file, ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest));

/** Per file, the names other files import from it; "*" for a namespace import. */
const used = new Map<string, Set<string>>();
const use = (file: string, name: string): void => {
  const names = used.get(file) ?? new Set<string>();
  names.add(name);
  used.set(file, names);
};
for (const [file, source] of parsed)
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    const target = specifier === undefined ? undefined : resolve(file, specifier);
    if (target === undefined || target === file) continue;
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings === undefined || ts.isNamespaceImport(bindings)) use(target, "*");
      else for (const e of bindings.elements) use(target, (e.propertyName ?? e.name).text);
    } else if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause === undefined || !ts.isNamedExports(clause)) use(target, "*");
      else for (const e of clause.elements) use(target, (e.propertyName ?? e.name).text);
    }
  }

const unused: string[] = [];
for (const [file, source] of parsed) {
  if (!isProduct(file)) continue;
  const names = used.get(file) ?? new Set<string>();
  if (names.has("*")) continue;
  for (const name of exportsOf(source))
    if (!names.has(name))
      unused.push(`${path.relative(ROOT, file)}: ${name} is exported but no other file imports it`);
}
for (const line of unused) process.stdout.write(`${line}\n`);
if (unused.length > 0) {
  process.stderr.write(`exports: ${unused.length} export(s) no other file imports\n`);
  process.exit(1);
}
process.stderr.write("exports: every export is imported somewhere\n");
