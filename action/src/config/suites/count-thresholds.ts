// The `threshold:` and `noise-floor:` keys of the suite kinds that measure deterministic counts
// (gungraun, instructions): parsed like the statistics block's fractions ("1%" or 0.01), checked
// against each other, errors naming the key.
import { InputError } from "../../errors.ts";
import { parseFraction } from "../../core/settings.ts";
import type { ConfigAt, OwnCountThresholds } from "./suite-kind.ts";

export function ownCountThresholds(
  raw: { readonly threshold?: number | string; readonly "noise-floor"?: number | string },
  { key, source }: ConfigAt,
): OwnCountThresholds {
  const read = (name: "threshold" | "noise-floor"): number | undefined => {
    const value = raw[name];
    if (value === undefined) return undefined;
    try {
      const x = parseFraction(name, value);
      if (!(x >= 0 && x <= 1)) throw new InputError(`expected 0 to 100 %, got ${String(value)}`);
      return x;
    } catch (error) {
      throw new InputError((error as Error).message, { source, jsonPath: `${key}/${name}` });
    }
  };
  const threshold = read("threshold");
  const noiseFloor = read("noise-floor");
  if (threshold !== undefined && noiseFloor !== undefined && threshold < noiseFloor)
    throw new InputError(`threshold (${threshold}) must be >= noise-floor (${noiseFloor})`, {
      source,
      jsonPath: `${key}/threshold`,
    });
  return {
    ...(threshold === undefined ? {} : { threshold }),
    ...(noiseFloor === undefined ? {} : { noiseFloor }),
  };
}
