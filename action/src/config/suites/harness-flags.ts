// Whether a suite's own arguments already set one of a harness's options: under
// `schedule: pairs` benchgate adds the harness's time flags only where the user did not, so the
// user's value wins (criterion/process-time.ts, hyperfine's shorten). Pure.

/** `--flag V` or `--flag=V`. */
export function setsFlag(args: readonly string[], flag: string): boolean {
  return args.some((a) => a === flag || a.startsWith(`${flag}=`));
}

/** A count option by its long or short name: `--warmup 3`, `--warmup=3`, `-w 3`, `-w3`, `-w=3`. */
export function setsOption(args: readonly string[], long: string, short: string): boolean {
  return (
    setsFlag(args, long) ||
    args.some((a) => a === short || (a.startsWith(short) && /^[=0-9]/.test(a.slice(short.length))))
  );
}
