// A PR comment rendered the way GitHub renders it: GitHub-flavoured Markdown (CommonMark plus
// tables, strikethrough and autolinks, through micromark's GFM extension, which follows the same
// specification as GitHub's cmark-gfm) with the raw HTML the comment uses (<details>, <code>,
// <sub>, comments) passed through, inside a page that imitates the width, font and table style of
// a comment on github.com. Used by the rendered-comment test and by scripts/screenshots.ts.
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/** A comment's body as HTML, as github.com would put it in the timeline (before its sanitizer). */
export function githubMarkdownHtml(markdown: string): string {
  return micromark(markdown, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
}

/** The width of a PR comment's body on github.com at a 1280 px window: what a reader sees. */
export const COMMENT_WIDTH = 780;

// GitHub's comment styles, reduced to what the comment uses: the system font stack at 14 px,
// bordered tables with zebra rows, inline code on a grey ground, headings with a rule under h2.
const STYLE = `
body { margin: 0; background: #fff; }
.comment { box-sizing: border-box; width: ${COMMENT_WIDTH}px; margin: 16px; padding: 16px;
  border: 1px solid #d1d9e0; border-radius: 6px; color: #1f2328;
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial,
  sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji"; word-wrap: break-word; }
.comment > :first-child { margin-top: 0; }
h2 { font-size: 1.5em; font-weight: 600; margin: 24px 0 16px; padding-bottom: .3em;
  border-bottom: 1px solid #d1d9e0b3; }
h3 { font-size: 1.25em; font-weight: 600; margin: 24px 0 16px; }
p, ul, table, details { margin: 0 0 16px; }
ul { padding-left: 2em; }
code { font: 85% ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono",
  monospace; background: #818b981f; border-radius: 6px; padding: .2em .4em; }
table { border-collapse: collapse; display: block; width: max-content; max-width: 100%;
  overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; }
tr:nth-child(2n) { background: #f6f8fa; }
summary { cursor: pointer; }
sub { font-size: 75%; color: #59636e; }
`;

/** A whole HTML document showing the comment as one comment box on a PR page. */
export function githubCommentPage(markdown: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>benchgate comment</title>
<style>${STYLE}</style></head>
<body><div class="comment">${githubMarkdownHtml(markdown)}</div></body></html>
`;
}
