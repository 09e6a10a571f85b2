// The real Callgrind profiles of the demo crate (fixtures/callgrind-3.19, its README), parsed:
// the tests of "Where it regressed" (issue 29) in ingest/, core/ and render/ share them.
import { readFileSync } from "node:fs";
import { parseCallgrind } from "../../src/ingest/callgrind/callgrind-profile.ts";
import type { InstructionProfile } from "../../src/schemas/instruction-profile.ts";
import { FIXTURES } from "./fixtures.ts";

export type CallgrindFixture =
  "normalize.base" | "normalize.base2" | "normalize.head" | "fnv1a.base" | "fnv1a.head";

/** One fixture file's text. */
export function callgrindFixtureText(name: CallgrindFixture): string {
  return readFileSync(`${FIXTURES}/callgrind-3.19/callgrind.out.${name}`, "utf8");
}

/** One fixture file, parsed. */
export function callgrindFixture(name: CallgrindFixture): InstructionProfile {
  return parseCallgrind(callgrindFixtureText(name), name);
}
