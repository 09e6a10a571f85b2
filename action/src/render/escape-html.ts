// HTML escaping for pages we generate ourselves (the history page), where GitHub's mention and
// reference processing does not run. Safe in element text and in quoted attribute values; not
// for URLs (use an https-only allowlist), `<script>`/`<style>` bodies or unquoted attributes.

import { sanitizeText, type SanitizeOptions } from "./sanitize-text.ts";

const HTML_ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/**
 * Escapes untrusted text for HTML text and quoted-attribute contexts: `& < > " ' \``, after the
 * same display sanitizing as Markdown (one line, no bidi/zero-width/control characters).
 * No length cap unless `maxLength` is given. Never throws.
 */
export function escapeHtml(text: unknown, options: SanitizeOptions = {}): string {
  const clean = sanitizeText(text, { maxLength: options.maxLength ?? Infinity });
  return clean.replace(/[&<>"'`]/gu, (ch) => HTML_ENTITIES[ch] ?? "");
}
