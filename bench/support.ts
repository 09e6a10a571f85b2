// Shared bits of the benchmark scripts: options, medians, and where results are written.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const RESULTS = path.join(ROOT, "bench/results");

export function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Prints the result and keeps it in bench/results/<name>.json (not committed). */
export function writeResult(name: string, result: unknown): void {
  mkdirSync(RESULTS, { recursive: true });
  const text = JSON.stringify(result, null, 2);
  writeFileSync(path.join(RESULTS, `${name}.json`), text + "\n");
  process.stdout.write(`${name}: ${text}\n`);
}
