// Data handed to a page as a classic script (`<script src="benchgate-data.js">`), which works
// from file:// where fetch() of a local file does not. JSON is a JavaScript expression; the
// characters that could end a script element or a line in older parsers (< > & U+2028 U+2029)
// can only occur inside JSON strings, where \uXXXX escapes mean the same text.

const UNSAFE = /[<>&\u2028\u2029]/gu;

export function scriptAssignment(globalName: string, value: unknown): string {
  if (!/^[A-Z][A-Z0-9_]*$/.test(globalName))
    throw new RangeError(`not a global name for the page: ${globalName}`);
  const json = JSON.stringify(value).replace(
    UNSAFE,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `window.${globalName} = ${json};\n`;
}
