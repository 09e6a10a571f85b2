// "Where it regressed" for suites whose own runs already profiled every benchmark under
// Callgrind (SuiteKind.recordedProfile: gungraun): nothing runs again; each side's profile is
// the one of its latest round that has the benchmark, in OUT/raw/<suite>/<side>-<round>/.
import type { SuitePlan } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { Side } from "../config/suites/suite-kind.ts";
import type { InstructionProfile } from "../schemas/instruction-profile.ts";
import type { RecordedProfile } from "../ingest/gungraun/gungraun-profiles.ts";
import type { FileReader } from "../ports/files.ts";
import type { DirPort } from "../ports/dirs.ts";
import { suiteDir } from "../runner/run-suite.ts";

const ROUND_FOLDER = /^(base|head)-([1-9][0-9]{0,3})$/;

/** Each side's recorded profile of benchmark `id`, from its latest round that has one. */
export async function recordedProfiles(
  suite: SuitePlan,
  id: string,
  out: string,
  machine: { readonly reader: FileReader; readonly dirs: Pick<DirPort, "names"> },
): Promise<Record<Side, RecordedProfile> | undefined> {
  const kind = suiteKind(suite);
  const find = kind.recordedProfile?.bind(kind);
  if (find === undefined) return undefined;
  const dir = suiteDir(out, suite);
  const rounds = (await machine.dirs.names(dir))
    .map((name) => ROUND_FOLDER.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ tag: m[0], side: m[1] as Side, round: Number(m[2]) }))
    .sort((a, b) => b.round - a.round);
  const latest = async (side: Side): Promise<RecordedProfile | undefined> => {
    for (const r of rounds.filter((r) => r.side === side)) {
      const found = await find(suite, { dir, tag: r.tag }, id, machine.reader);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const base = await latest("base");
  const head = await latest("head");
  return base === undefined || head === undefined ? undefined : { base, head };
}

/**
 * The benchmark function in a harness's profile: of the functions named `…::<name>` (the
 * harness's wrapper around it keeps its name), the one with the most inclusive instructions.
 * Its calls are the iterations (once per run for gungraun) and its callees the scope, so the
 * harness's own start-up is never ranked.
 */
export function routineIn(
  profile: InstructionProfile,
  name: string | undefined,
): string | undefined {
  if (name === undefined) return undefined;
  let best: { name: string; inclusive: number } | undefined;
  for (const f of profile.functions.values())
    if ((f.name === name || f.name.endsWith(`::${name}`)) && f.inclusive > (best?.inclusive ?? -1))
      best = f;
  return best?.name;
}
