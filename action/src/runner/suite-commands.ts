// The runner's side of a command line: each side's environment and the order of the sides in a
// round. What each suite kind runs is declared by the kind (config/suites/), the placeholders by
// config/placeholders.ts.
import type { SidePaths, Side } from "../config/suites/suite-kind.ts";

/** Every command of a side sees its own target directory; Cargo's progress bars stay out of logs. */
export function sideEnv(
  env: Readonly<Record<string, string>>,
  paths: SidePaths,
): Record<string, string> {
  return {
    ...env,
    CARGO_TARGET_DIR: paths.target,
    CARGO_TERM_COLOR: "never",
    CARGO_TERM_PROGRESS_WHEN: "never",
  };
}

/** Round r runs base first when r is odd: A B | B A | A B …, so order effects cancel. */
export function roundOrder(round: number): readonly [Side, Side] {
  return round % 2 === 1 ? ["base", "head"] : ["head", "base"];
}
