// Suites whose benchmarks are named commands (hyperfine, instructions): a benchmark's id is its
// command's name, so `/rebench <filter>` and sequential rounds keep the commands by name.
import type { Narrowed, OpenBenchmarks } from "./suite-kind.ts";

interface WithCommands {
  readonly commands: readonly { readonly name: string }[];
}

/** The plan with the commands whose name matches, or undefined when none does. */
export function filterCommands<Plan extends WithCommands>(
  plan: Plan,
  filter: RegExp,
): Plan | undefined {
  const commands = plan.commands.filter((c) => filter.test(c.name));
  return commands.length === 0 ? undefined : { ...plan, commands };
}

/** The plan with the commands still open, or undefined when none is. */
export function narrowCommands<Plan extends WithCommands>(
  plan: Plan,
  { active }: OpenBenchmarks,
): Narrowed<Plan> | undefined {
  const commands = plan.commands.filter((c) => active.has(c.name));
  return commands.length === 0 ? undefined : { plan: { ...plan, commands } };
}
