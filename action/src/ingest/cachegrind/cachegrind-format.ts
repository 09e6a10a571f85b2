// `ingest cachegrind FILE [--name NAME]`: one Cachegrind (or Callgrind) output file, the one
// program run it measured (./cachegrind.ts).
import type { TextFormatKind } from "../format-kind.ts";
import { MiB } from "../read-json.ts";
import { parseCachegrind } from "./cachegrind.ts";

export const cachegrindFormat: TextFormatKind<"cachegrind"> = {
  name: "cachegrind",
  title: "Cachegrind",
  input: "text",
  // The cap of every other input file. With --cache-sim=no a file holds one line per source
  // line executed: a few MB for a large program; the text is read whole, so no more than this.
  maxBytes: 64 * MiB,
  help: [
    "a valgrind --tool=cachegrind (or callgrind) output file: one",
    "benchmark, Ir as instructions, the other events beside it;",
    "id: --name, else the program's name",
  ],
  nameOption: "the benchmark's id (default: the program on the cmd: line)",
  // A text format: a file of it fails JSON parsing before any signature could look at it.
  signatures: [],
  parseText: (text, source, { suite, name, guess }) =>
    parseCachegrind(text, source, { suite, name, guess }),
};
