// `ingest custom FILE`: either benchgate's own summary.json (validated and passed through) or a
// seed-style harness summary (./harness-summary.ts). Other tools' files are recognized and sent
// to their own adapter by the error message, not guessed into a harness summary.
import type { BenchSummary, Benchmark } from "../../schemas/summary.gen.ts";
import { validateSummary } from "../../schemas/validate-document.ts";
import type { FormatGuess } from "../format-kind.ts";
import { CONTAINER_KEYS, looksLikeHarnessSummary, parseHarnessSummary } from "./harness-summary.ts";
import { fail, hasField, isObject, rootAt } from "../json-guards.ts";

type CustomInput =
  | { readonly kind: "summary"; readonly summary: BenchSummary }
  | { readonly kind: "harness"; readonly benchmarks: Benchmark[] };

/** Parses a custom input; a summary.json is schema-validated here. */
export function parseCustom(
  data: unknown,
  source: string,
  options: { readonly suite?: string | undefined; readonly guess: FormatGuess },
): CustomInput {
  const at = rootAt(source);
  if (isObject(data) && hasField(data, "schema_version")) {
    return { kind: "summary", summary: validateSummary(data, source) };
  }
  const guess = options.guess(data);
  if (guess !== undefined) fail(at, `not a custom summary: this looks like ${guess}`);
  if (!looksLikeHarnessSummary(data)) {
    fail(
      at,
      `not a custom summary: expected a benchgate summary.json ("schema_version") or a harness summary ` +
        `(an object with one of ${[...CONTAINER_KEYS, "scenarios"].join(", ")})`,
    );
  }
  return { kind: "harness", benchmarks: parseHarnessSummary(data, source, options) };
}
