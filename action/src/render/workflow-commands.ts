// Text printed in a GitHub Actions log must not be obeyed as a workflow command
// (docs/threat-model.md, O6). The runner reads every line a step prints and runs it as a command
// when, after leading whitespace, the line starts with "::" (`::add-mask::`, `::stop-commands::`,
// `::set-output …`), or when "##[" followed by a command name appears anywhere in it (the older
// form). Benchmark ids and tool messages are chosen by untrusted code, so every line benchgate
// prints passes through here: the second colon of a leading "::" becomes the six characters
// `\u003a`, and the bracket of "##[" becomes `\u005b`. The result is visible, commands nothing,
// and is idempotent. In a JSON document printed to standard output it changes no value: no JSON
// line starts with ":", and "##[" occurs only inside a string, where JSON reads `\u005b` as "[".

const COLON_ESCAPE = "\\u003a";
const BRACKET_ESCAPE = "\\u005b";

// What the runner trims before looking for "::" (.NET's Char.IsWhiteSpace, and a little more);
// it splits lines at CR and LF.
const LEADING_SPACE = /[\s\u0085]/u;
const [LF, CR, COLON, HASH, BRACKET] = [10, 13, 58, 35, 91] as const;

/**
 * A rewriter for one output stream. It keeps its place between calls, so a command split over
 * two writes (`out("  :")`, `out(":add-mask::x")`) is caught as well; give each stream its own.
 */
export function workflowCommandGuard(): (chunk: string) => string {
  // "blank": only whitespace so far on this line; "colon": whitespace and one ":"; "text": more.
  let lead: "blank" | "colon" | "text" = "blank";
  let hashes = 0;
  return (chunk) => {
    const parts: string[] = [];
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      let escaped: string | undefined;
      if (c === BRACKET && hashes >= 2) escaped = BRACKET_ESCAPE;
      hashes = c === HASH ? hashes + 1 : 0;
      if (c === LF || c === CR) lead = "blank";
      else if (lead !== "text") {
        if (c === COLON && lead === "colon") escaped = COLON_ESCAPE;
        if (c === COLON && lead === "blank") lead = "colon";
        else if (lead === "colon" || !LEADING_SPACE.test(chunk[i] as string)) lead = "text";
      }
      if (escaped !== undefined) {
        parts.push(chunk.slice(from, i), escaped);
        from = i + 1;
      }
    }
    if (parts.length === 0) return chunk;
    parts.push(chunk.slice(from));
    return parts.join("");
  };
}

/** `text` made safe for a CI log, taken to start at the beginning of a line. */
export function defuseWorkflowCommands(text: string): string {
  return workflowCommandGuard()(text);
}
