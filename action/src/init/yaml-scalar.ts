// A YAML scalar that reads back as exactly the given string. The templates only ever write
// names that were checked to be simple (labels, branch and bench target names), but a plain
// `true`, `null`, `on` or `1e5` would read back as a boolean, null or number, so those are
// quoted. Pure.

// YAML 1.1 and 1.2 words that a plain scalar would not keep as a string.
const YAML_WORDS = new Set(["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]);

export function yamlScalar(value: string): string {
  return /^[A-Za-z_][A-Za-z0-9._/-]*$/.test(value) && !YAML_WORDS.has(value.toLowerCase())
    ? value
    : JSON.stringify(value);
}
