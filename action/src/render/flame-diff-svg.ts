// A differential flame graph (issue 29, docs/where.md), drawn by benchgate from the two Callgrind
// profiles of one benchmark: one frame per call path, as wide as head's instructions on it,
// coloured by the change of the instructions in the function itself (red: more, blue: fewer).
// Pure: the SVG is a string; the caller writes it to the output folder.
//
// Callgrind records caller → callee arcs with their inclusive cost, not whole stacks, so the
// paths are an approximation: from each root (a function nobody calls), a callee's share under
// a path is the arc's cost scaled by the share of the caller's inclusive cost that path holds
// (a callee called from two places splits in proportion to those calls, the same for every
// path through each caller). A function already on the path is not expanded again (recursion;
// its cost shows as its caller's own), paths end at MAX_DEPTH, frames narrower than MIN_SHARE
// of the whole are not drawn, and at most `maxFrames` are, widest levels first. A chain of
// frames that only pass everything on is folded into one (foldChains). Output is deterministic:
// children in name order, numbers rounded.
import { withSign } from "../number-text.ts";
import type { InstructionProfile, IterationBasis } from "../schemas/instruction-profile.ts";
import { escapeHtml } from "./escape-html.ts";
import { formatChange, formatNumber } from "./format.ts";

const MAX_DEPTH = 64;
/** Frames below this share of the whole run are not drawn (a pixel or two at 1,200 px). */
const MIN_SHARE = 0.001;
/** Expansions per side: the tree of paths can grow exponentially in a dense call graph. */
const MAX_EXPANSIONS = 50_000;

interface FlameOptions {
  readonly title: string;
  readonly maxFrames?: number;
  readonly width?: number;
}

interface Frame {
  readonly name: string;
  readonly value: [number, number]; // base, head: inclusive on this path
  readonly self: [number, number];
  readonly children: Map<string, Frame>;
  /** The frames folded into this one, outermost first (foldChains). */
  readonly via?: readonly string[];
}

const newFrame = (name: string): Frame => ({
  name,
  value: [0, 0],
  self: [0, 0],
  children: new Map(),
});

/** Adds one side's paths to the tree, from its roots down. */
function addSide(profile: InstructionProfile, side: 0 | 1, root: Frame, divisor: number): void {
  const callees = new Map<string, { callee: string; inclusive: number }[]>();
  const called = new Set<string>();
  for (const arc of profile.arcs) {
    if (arc.caller === arc.callee) continue;
    called.add(arc.callee);
    const list = callees.get(arc.caller) ?? [];
    list.push({ callee: arc.callee, inclusive: arc.inclusive });
    callees.set(arc.caller, list);
  }
  for (const list of callees.values()) list.sort((a, b) => (a.callee < b.callee ? -1 : 1));
  const floor = MIN_SHARE * profile.total;
  let budget = MAX_EXPANSIONS;
  const expand = (key: string, value: number, frame: Frame, path: Set<string>): void => {
    const f = profile.functions.get(key);
    if (f === undefined || f.inclusive <= 0 || budget-- <= 0) return;
    const scale = Math.min(1, value / f.inclusive);
    frame.value[side] += value / divisor;
    frame.self[side] += (f.self * scale) / divisor;
    if (path.size >= MAX_DEPTH) return;
    for (const { callee, inclusive } of callees.get(key) ?? []) {
      const share = inclusive * scale;
      if (path.has(callee) || share < floor) continue;
      const name = profile.functions.get(callee)?.name ?? callee;
      const child = frame.children.get(callee) ?? newFrame(name);
      frame.children.set(callee, child);
      path.add(callee);
      expand(callee, share, child, path);
      path.delete(callee);
    }
  };
  const roots = [...profile.functions]
    .filter(([key, f]) => !called.has(key) && f.inclusive >= floor)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [key, f] of roots) {
    const child = root.children.get(key) ?? newFrame(f.name);
    root.children.set(key, child);
    expand(key, f.inclusive, child, new Set([key]));
    root.value[side] += f.inclusive / divisor;
  }
}

/**
 * Chains of frames that only pass everything on, to one child and with no instructions of their
 * own worth drawing on either side (the start-up and the harness's calls down to the benchmark's
 * loop, a dozen under Criterion; each process's under a shell line), are drawn as one frame: the
 * innermost of the chain, its tooltip naming the others. Everywhere in the tree, top down.
 */
function foldChains(frame: Frame, floor: number): void {
  const passes = (f: Frame): boolean =>
    f.children.size === 1 && f.self[0] < floor && f.self[1] < floor;
  for (const [key, first] of [...frame.children]) {
    let innermost = first;
    const via: string[] = [];
    while (passes(innermost)) {
      const [next] = innermost.children.values();
      if (next === undefined || !passes(next)) break;
      via.push(innermost.name);
      innermost = next;
    }
    // Two frames or more folded: one would only trade a row for a label.
    const folded = via.length < 2 ? first : { ...innermost, via };
    frame.children.set(key, folded);
    foldChains(folded, floor);
  }
}

/** Fill colour: red for more own instructions on head, blue for fewer, grey for no change. */
function colour(delta: number, largest: number): string {
  const a = largest > 0 ? Math.min(1, Math.abs(delta) / largest) : 0;
  const fade = Math.round(225 * (1 - a));
  if (a < 0.005) return "rgb(225,225,225)";
  return delta > 0 ? `rgb(255,${fade},${fade})` : `rgb(${fade},${fade},255)`;
}

function signed(value: number): string {
  return withSign(value, formatNumber(Math.abs(value)), true);
}

/** The first `n` code points of `name`, with ".." when cut. */
function shortened(name: string, n: number): string {
  const points = Array.from(name);
  return points.length > n ? `${points.slice(0, Math.max(0, n - 2)).join("")}..` : name;
}

/** The frame's tooltip, unescaped: its name and its figures on both sides. */
function tooltip(frame: Frame, per: string): string {
  const [bi, hi] = frame.value;
  const [bs, hs] = frame.self;
  const pct = (b: number, h: number): string =>
    b !== 0 ? formatChange((h - b) / b) : h === 0 ? "none on either side" : "new";
  const via =
    frame.via === undefined
      ? ""
      : ` | called through ${frame.via.length} folded frames: ${shortened(frame.via.join(" → "), 1200)}`;
  return (
    `${shortened(frame.name, 300)} | inclusive ${per}: base ${formatNumber(bi)}, head ` +
    `${formatNumber(hi)}, change ${signed(hi - bi)} (${pct(bi, hi)}) | self: base ` +
    `${formatNumber(bs)}, head ${formatNumber(hs)}, change ${signed(hs - bs)} (${pct(bs, hs)})` +
    via
  );
}

/** The SVG document. Every text from the profiles is escaped; at most `maxFrames` frames. */
export function flameDiffSvg(
  base: InstructionProfile,
  head: InstructionProfile,
  basis: IterationBasis,
  options: FlameOptions,
): string {
  const width = options.width ?? 1200;
  const maxFrames = options.maxFrames ?? 500;
  const perIteration = basis.kind === "per-iteration";
  const root = newFrame("all");
  addSide(base, 0, root, perIteration ? basis.base : 1);
  addSide(head, 1, root, perIteration ? basis.head : 1);
  foldChains(root, MIN_SHARE * Math.max(root.value[0], root.value[1]));
  const per = perIteration ? "instructions per iteration" : "instructions per run";

  // Level order, children by name: the frames kept when capping are the shallow ones.
  const placed: { frame: Frame; x: number; depth: number }[] = [];
  const queue = [{ frame: root, x: 0, depth: 0 }];
  const scale = root.value[1] > 0 ? (width - 20) / root.value[1] : 0;
  for (let i = 0; i < queue.length && placed.length < maxFrames; i++) {
    const item = queue[i] as (typeof queue)[number];
    if (item.frame.value[1] * scale < 0.5) continue;
    placed.push(item);
    let x = item.x;
    const children = [...item.frame.children.values()].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const child of children) {
      queue.push({ frame: child, x, depth: item.depth + 1 });
      x += child.value[1] * scale;
    }
  }
  const largest = Math.max(0, ...placed.map((p) => Math.abs(p.frame.self[1] - p.frame.self[0])));
  const depth = Math.max(0, ...placed.map((p) => p.depth));
  const top = 50;
  const height = top + (depth + 1) * 17 + 10;
  const title = escapeHtml(options.title, { maxLength: 200 });
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="12">`,
    `<title>${title}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="20" font-size="15">${title}</text>`,
    `<text x="10" y="38">width: head's ${per}; colour: own instructions, red more, blue fewer than base; ${placed.length} frames drawn</text>`,
  ];
  for (const { frame, x, depth: d } of placed) {
    const w = frame.value[1] * scale;
    const y = top + d * 17;
    const chars = Math.floor((w - 6) / 7.2);
    const name =
      frame.via === undefined ? frame.name : `[${frame.via.length} frames] ${frame.name}`;
    const label = chars < 3 ? "" : escapeHtml(shortened(name, chars));
    out.push(
      `<g><title>${escapeHtml(tooltip(frame, per))}</title>` +
        `<rect x="${(10 + x).toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="16" fill="${colour(frame.self[1] - frame.self[0], largest)}" rx="2"/>` +
        (label === "" ? "" : `<text x="${(13 + x).toFixed(1)}" y="${y + 12}">${label}</text>`) +
        `</g>`,
    );
  }
  out.push(`</svg>`, "");
  return out.join("\n");
}
