// DOM construction for data from the history: text goes in through textContent only, links only
// with an https URL. Nothing in the page assigns innerHTML. Bidi controls and invisible
// characters never reach the page: every string in the data was made display-safe when the
// data was built (action/src/site/page-text.ts, which says why there and not here).

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The URL when it is https (re-checked here: the data file is only as good as its producer). */
export function httpsHref(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A link that opens in a new tab without giving it a handle on this page. */
export function externalLink(href: string, text: string): HTMLAnchorElement {
  const a = el("a", undefined, text);
  a.href = href;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  return a;
}
