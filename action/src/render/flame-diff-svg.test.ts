import { describe, expect, it } from "vitest";
import { callgrindFixture as load } from "../../test/support/callgrind-fixtures.ts";
import { diffProfiles } from "../core/instruction-diff.ts";
import type { InstructionProfile } from "../schemas/instruction-profile.ts";
import { flameDiffSvg } from "./flame-diff-svg.ts";

const BASE = load("normalize.base");
const HEAD = load("normalize.head");
const BASIS = diffProfiles(BASE, HEAD).basis;

/**
 * A small well-formedness check (no XML parser among the dependencies): one root element, tags
 * nested and closed in order, attribute values quoted, and `&` only as an entity reference. The
 * characters allowed in names and attribute values are those this renderer writes.
 */
function wellFormed(xml: string): string[] {
  const body = xml.replace(/^<\?xml [^?]*\?>\n/u, "");
  const stack: string[] = [];
  const roots: string[] = [];
  const tag =
    /<(\/?)([a-z]+)((?:\s+[A-Za-z:-]+="[^"<&]*(?:&(?:#\d+|[a-z]+);[^"<&]*)*")*)\s*(\/?)>/gu;
  let last = 0;
  for (const m of body.matchAll(tag)) {
    const between = body.slice(last, m.index);
    if (/[<>]/u.test(between)) throw new Error(`stray markup: ${between.slice(0, 80)}`);
    if (/&(?!(?:#\d+|amp|lt|gt|quot|apos);)/u.test(between))
      throw new Error(`bare & in text: ${between.slice(0, 80)}`);
    last = m.index + m[0].length;
    const [, close, name = "", , selfClose] = m;
    if (close === "/") {
      if (stack.pop() !== name) throw new Error(`</${name}> closes the wrong element`);
    } else if (selfClose !== "/") {
      if (stack.length === 0) roots.push(name);
      stack.push(name);
    } else if (stack.length === 0) roots.push(name);
  }
  if (stack.length > 0) throw new Error(`unclosed: ${stack.join(" ")}`);
  if (body.slice(last).trim() !== "") throw new Error("text after the root");
  return roots;
}

describe("flameDiffSvg", () => {
  it("(the check itself refuses what is not well-formed)", () => {
    expect(() => wellFormed("<svg><g></svg>")).toThrow("closes the wrong element");
    expect(() => wellFormed("<svg><text>a & b</text></svg>")).toThrow("bare &");
    expect(() => wellFormed('<svg><text a="<">x</text></svg>')).toThrow("stray markup");
    expect(() => wellFormed("<svg>")).toThrow("unclosed");
  });

  it("draws the normalize regression: well-formed, the routine red, deterministic", () => {
    const svg = flameDiffSvg(BASE, HEAD, BASIS, { title: "normalize: base → head" });
    expect(wellFormed(svg)).toEqual(["svg"]);
    expect(svg).toBe(flameDiffSvg(BASE, HEAD, BASIS, { title: "normalize: base → head" }));
    const frame =
      /<g><title>demo_crate::normalize \| ([^<]*)<\/title><rect [^>]*fill="([^"]*)"/u.exec(svg);
    expect(frame?.[1]).toContain("self: base 229,451, head 688,360, change +458,909 (+200.0 %)");
    expect(frame?.[2]).toBe("rgb(255,0,0)");
    expect(svg).toContain("instructions per iteration");
    expect(svg.length).toBeLessThan(20_000);
  });

  it("escapes a hostile function name in labels and tooltips, and caps the frames", () => {
    const hostile = `evil"><script>alert('x')</script>&amp; \u202e`;
    const rename = (p: InstructionProfile): InstructionProfile => ({
      ...p,
      functions: new Map(
        [...p.functions].map(([key, f]) => [
          key,
          f.name === "demo_crate::normalize" ? { ...f, name: hostile } : f,
        ]),
      ),
    });
    const svg = flameDiffSvg(rename(BASE), rename(HEAD), BASIS, { title: `t<${hostile}` });
    expect(wellFormed(svg)).toEqual(["svg"]);
    expect(svg).not.toContain("<script>");
    expect(svg).not.toContain("\u202e");
    expect(svg).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;");
    // Three frames once folded (below): a cap of 2 leaves the routine out.
    const capped = flameDiffSvg(BASE, HEAD, BASIS, { title: "t", maxFrames: 2 });
    expect(capped.match(/<g>/gu)).toHaveLength(2);
    expect(capped).not.toContain("demo_crate::normalize");
    expect(wellFormed(capped)).toEqual(["svg"]);
  });

  it("folds the chain of frames that only pass everything on into one, naming them", () => {
    const svg = flameDiffSvg(BASE, HEAD, BASIS, { title: "t" });
    // all, the start-up and Criterion's calls down to its loop as one frame, then the routine.
    expect(svg).toContain("3 frames drawn");
    const folded =
      /<g><title>(criterion::bencher::Bencher&lt;M&gt;::iter \|[^<]*)<\/title>[^\n]*<text[^>]*>(\[\d+ frames\] [^<]*)<\/text>/u.exec(
        svg,
      );
    expect(folded?.[2]).toBe("[12 frames] criterion::bencher::Bencher&lt;M&gt;::iter");
    expect(folded?.[1]).toContain("called through 12 folded frames: ");
    expect(folded?.[1]).toContain("criterion::routine::Routine::profile → ");
    expect(folded?.[1]).toContain("main → ");
  });

  it("draws whole runs when there is no iteration count", () => {
    const svg = flameDiffSvg(BASE, HEAD, { kind: "per-run", reason: "r" }, { title: "t" });
    expect(svg).toContain("instructions per run");
    expect(svg).toContain(
      "all | inclusive instructions per run: base 469,709,998, head 704,208,601",
    );
  });
});
