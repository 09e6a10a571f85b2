// The name filter: a substring, or a glob when the text has * or ?; case-insensitive. Matched
// with a small two-pointer matcher instead of a RegExp built from the query, so no query can
// make matching slow (200 names are matched on every keystroke).

export type NameMatcher = (name: string) => boolean;

export function nameMatcher(query: string): NameMatcher {
  const q = query.trim().toLowerCase();
  if (q === "") return () => true;
  if (!/[*?]/.test(q)) return (name) => name.toLowerCase().includes(q);
  return (name) => globMatch(q, name.toLowerCase());
}

/** Whole-string glob match: * is any run of characters (including "/"), ? is one character. */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === "?" || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}
