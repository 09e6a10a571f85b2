// When a file is handed to the wrong adapter ("ingest critcmp hyperfine.json"), say what the
// file looks like instead of only what it lacks. Every format declares its signatures
// (./format-kind.ts); this tries them all, strongest first.
import type { FormatKind, SignatureStrength } from "./format-kind.ts";
import { FORMAT_KINDS } from "./registry.ts";

const STRENGTHS: readonly SignatureStrength[] = ["marker", "shape", "fields"];

/** How the hint names the command for `kind`: `ingest criterion DIR`, `ingest gab`. */
function command(kind: FormatKind): string {
  return kind.input === "directory" ? `ingest ${kind.name} DIR` : `ingest ${kind.name}`;
}

const SIGNATURES = STRENGTHS.flatMap((strength) =>
  FORMAT_KINDS.flatMap((kind) =>
    kind.signatures
      .filter((s) => s.strength === strength)
      .map((s) => ({ matches: s.matches, says: `${s.is} (use: ${command(kind)})` })),
  ),
);

/** What kind of benchmark file `data` resembles, or undefined. Looks only at the top level. */
export function guessFormat(data: unknown): string | undefined {
  return SIGNATURES.find((s) => s.matches(data))?.says;
}
