// The path rule of benchgate.yml (docs/threat-model.md, I5): every key that names a file or
// folder of the repository, or of a suite's output folder `{out}`, holds a relative path that
// stays inside that base — no leading "/", no drive letter, no ".." part, no backslash and no
// control character (a NUL ends a path early in C, a backslash is a separator on Windows and a
// file name character elsewhere). It is checked with the schema (validate-document.ts, validateConfig),
// so `validate`, `run`, `golden`, `compare --config` and the action all refuse such a file before
// anything runs; the config resolver (config/config-checks.ts) applies the same rule again, and
// code that joins a path to its base checks containment once more.
import { InputError } from "../errors.ts";
import type { BenchgateConfig } from "./config.gen.ts";
import { SUITE_PATH_KEYS } from "./suite-paths.gen.ts";

/** What a path is relative to, as messages name it. */
export type PathBase = "the repository" | "{out}";

/** Why `raw` is not a relative path inside its base, or undefined when it is one. */
export function relativePathProblem(raw: string): string | undefined {
  if (raw === "") return "it is empty";
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u001f\u007f]/.test(raw)) return "it contains a control character";
  if (raw.includes("\\")) return 'it contains a backslash (separate folders with "/")';
  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw)) return "it is absolute";
  // With no "..", normalising (dropping "." and empty parts) can only stay inside the base.
  const parts = raw.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) return 'it has a ".." part';
  if (parts.length === 0) return "it names the folder itself";
  return undefined;
}

/** `raw` when it is a relative path inside `base`; else one InputError naming the key. */
export function checkRelativePath(
  raw: string,
  at: { readonly key: string; readonly source: string },
  base: PathBase = "the repository",
): string {
  const problem = relativePathProblem(raw);
  if (problem !== undefined)
    throw new InputError(
      `${JSON.stringify(raw)} must be a relative path inside ${base}, without ".." parts: ${problem}`,
      { source: at.source, jsonPath: at.key },
    );
  return raw;
}

/** Every path-valued key of a config: its JSON pointer, value and base. */
export function configPaths(
  config: BenchgateConfig,
): { readonly key: string; readonly value: string; readonly base: PathBase }[] {
  const paths: { key: string; value: string; base: PathBase }[] = [];
  const golden = config.golden;
  if (golden !== undefined) {
    paths.push({ key: "/golden/checksums", value: golden.checksums, base: "the repository" });
    if (golden.outputs !== undefined)
      paths.push({ key: "/golden/outputs", value: golden.outputs, base: "the repository" });
  }
  // A suite's path keys are those its kind's schema marks (`pathBase`, scripts/suite-paths.ts).
  (config.suites ?? []).forEach((suite, i) => {
    const fields = new Map<string, unknown>(Object.entries(suite));
    for (const [key, base] of Object.entries(SUITE_PATH_KEYS[suite.kind] ?? {})) {
      const value = fields.get(key);
      if (typeof value === "string") paths.push({ key: `/suites/${i}/${key}`, value, base });
    }
  });
  return paths;
}

/** Applies the path rule to every path-valued key of a schema-valid config. */
export function checkConfigPaths(config: BenchgateConfig, source: string): void {
  for (const { key, value, base } of configPaths(config))
    checkRelativePath(value, { key, source }, base);
}
