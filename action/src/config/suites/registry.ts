// Every suite kind of benchgate.yml, in the order the config schema lists them. Adding a kind:
// one folder under config/suites/ with its SuiteKind (./suite-kind.ts: its plan and step, and
// whatever else the runner and the gate ask of a kind, which they never tell apart by name),
// its tests and its `schema.json` (`"pathBase"` on each key that names a path); one line here;
// then `npm run gen` (schemas/config.v1.schema.json, the generated types, validators and path
// keys) and the kind's section in the docs.
import type { BenchgateConfig } from "../../schemas/config.gen.ts";
import { criterionSuite } from "./criterion/criterion-suite.ts";
import { customSuite } from "./custom/custom-suite.ts";
import { divanSuite } from "./divan/divan-suite.ts";
import { gungraunSuite } from "./gungraun/gungraun-suite.ts";
import { hyperfineSuite } from "./hyperfine/hyperfine-suite.ts";
import { instructionsSuite } from "./instructions/instructions-suite.ts";
import { loadSuite } from "./load/load-suite.ts";
import type { AnyStep, SuiteKind } from "./suite-kind.ts";

export const SUITE_KINDS = [
  criterionSuite,
  hyperfineSuite,
  customSuite,
  gungraunSuite,
  instructionsSuite,
  loadSuite,
  divanSuite,
] as const;

/** A suite entry of benchgate.yml, as the schema has checked it. */
export type RawSuite = NonNullable<BenchgateConfig["suites"]>[number];

/** A suite as `benchgate run` runs it: one of the kinds' plans. */
export type SuitePlan = ReturnType<(typeof SUITE_KINDS)[number]["plan"]>;

/** The kind of a suite entry or plan (dispatch by name; each kind only sees its own). */
export function suiteKind(suite: {
  readonly kind: string;
}): SuiteKind<RawSuite, SuitePlan, AnyStep> {
  const kind: SuiteKind<RawSuite, SuitePlan, AnyStep> | undefined = SUITE_KINDS.find(
    (k) => k.name === suite.kind,
  );
  if (kind === undefined) throw new Error(`no suite kind named ${suite.kind}`);
  return kind;
}

/** "criterion, hyperfine, custom, gungraun, instructions, load or divan". */
export function suiteKindList(): string {
  const names = SUITE_KINDS.map((k) => k.name);
  return names.length < 2
    ? names.join("")
    : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}
