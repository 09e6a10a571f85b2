// `schedule: pairs` runs each Criterion benchmark in processes of its own, two per round: through
// `cargo bench` every one of them would pay cargo's own start and freshness checks (about 0.2 s
// on a 2-core VM, beside a 0.7–0.9 s process: docs/run.md). So under pairs the build asks cargo
// for its messages as JSON (`--message-format=json-render-diagnostics`: the diagnostics are still
// rendered to the log) and the rounds run the bench executable it names, as cargo runs it:
// `--bench`, in the package's folder. The messages are a tool's output: every field is checked,
// and an executable outside the side's target directory, or a manifest outside its worktree, is
// not used (the processes then go through cargo bench). Pure.
import path from "node:path";
import type { BenchBinary, SidePaths } from "../config/suites/suite-kind.ts";

/** Cargo's messages for a build of one bench target: a few KiB per crate of the graph. */
export const MAX_MESSAGES_BYTES = 64 * 1024 * 1024;

/** The argument that makes `cargo bench --no-run` print its messages as JSON lines. */
export const JSON_MESSAGES = "--message-format=json-render-diagnostics";

/** Whether `inner` is `outer` or below it (both absolute). */
function inside(outer: string, inner: string): boolean {
  const rel = path.relative(path.resolve(outer), path.resolve(inner));
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** One message's bench executable and manifest, when it is the artifact of bench target `bench`. */
function artifactOf(line: string, bench: string): { exe: string; manifest: string } | undefined {
  if (!line.startsWith("{")) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message["reason"] !== "compiler-artifact") return undefined;
  const target = message["target"];
  const { executable: exe, manifest_path: manifest } = message;
  if (!isObject(target) || target["name"] !== bench) return undefined;
  const kinds = target["kind"];
  if (!Array.isArray(kinds) || !kinds.includes("bench")) return undefined;
  if (typeof exe !== "string" || typeof manifest !== "string") return undefined;
  return { exe, manifest };
}

/**
 * The executable of bench target `bench` in cargo's JSON messages, with the folder cargo runs it
 * in; undefined when the messages name none, several, or one in a place it cannot be.
 */
export function benchBinaryOf(
  stdout: string,
  bench: string,
  paths: Pick<SidePaths, "worktree" | "target">,
): BenchBinary | undefined {
  const found = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const artifact = artifactOf(line.trim(), bench);
    if (artifact !== undefined) found.set(artifact.exe, artifact.manifest);
  }
  if (found.size !== 1) return undefined;
  const [[executable, manifest]] = [...found] as [[string, string]];
  if (!path.isAbsolute(executable) || !inside(paths.target, executable)) return undefined;
  if (!path.isAbsolute(manifest) || !inside(paths.worktree, manifest)) return undefined;
  return { executable, cwd: path.dirname(manifest) };
}
