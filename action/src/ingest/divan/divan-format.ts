// `ingest divan FILE`: divan's console output of one bench run (`cargo bench --bench B > FILE`),
// every benchmark of its tree (./divan.ts). Divan has no machine-readable output, so the text
// is the input; a `kind: divan` suite captures it from the bench process's stdout.
import type { TextFormatKind } from "../format-kind.ts";
import { MiB } from "../read-json.ts";
import { parseDivan } from "./divan.ts";

export const divanFormat: TextFormatKind<"divan"> = {
  name: "divan",
  input: "text",
  // 20,000 benchmarks (the summary's limit) of a few rows each fit in a few MB.
  maxBytes: 16 * MiB,
  help: [
    "divan's console output of a bench run (the stdout of",
    "cargo bench --bench B): one benchmark per leaf, keyed by its",
    "path (root/group/bench/arg); median, mean, fastest, slowest",
  ],
  // A text format: a file of it fails JSON parsing before any signature could look at it.
  signatures: [],
  parseText: (text, source, { suite, guess }) => ({
    benchmarks: parseDivan(text, source, { suite, guess }),
  }),
};
