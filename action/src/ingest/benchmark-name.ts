// A benchmark id that no tool file carries but benchgate is given (`--name`) or derives (a
// program's name from Cachegrind's `cmd:` line). Ids are printed in PR comments, logs and
// errors, so one made here holds no line break, escape or other control character.

/** Longest name given or derived (a suite name has the same bound). */
const MAX_NAME_LENGTH = 256;

/** C0 controls, DEL and C1 controls. */
function isControl(codePoint: number): boolean {
  return codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f);
}

/** What is wrong with `name` as a benchmark id, or undefined when nothing is. */
export function nameProblem(name: string): string | undefined {
  if (name.trim() === "") return "it is empty";
  if (name.length > MAX_NAME_LENGTH) return `it is longer than ${MAX_NAME_LENGTH} characters`;
  if (name === "__proto__") return '"__proto__" is not allowed';
  for (const char of name) {
    if (isControl(char.codePointAt(0) ?? 0)) return "it holds a control character";
  }
  return undefined;
}
