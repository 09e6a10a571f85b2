// When charts are drawn: the ones on screen at once, the rest in the background in slices
// that leave the page responsive, and any card that scrolls into view or is uncovered by the
// filter or a group being opened jumps the queue. Hidden cards (filtered out, collapsed group)
// are not drawn: they have no width to draw at.
//
// Marks for the benchmark (bench/history-page.ts) and the tests: performance marks
// "benchgate:first-screen" and "benchgate:all-drawn", and data-drawn="first-screen" / "all" on
// <html> once they happen.

/** A budget per slice of background drawing, below one frame. */
const SLICE_MS = 12;
/** Charts created per check of the time left in a slice. */
const BATCH = 4;

export interface DrawTarget {
  /** The element observed for visibility and measured for width. */
  readonly box: HTMLElement;
  /** Draws the chart; calls `done` when it has been painted into its canvas. */
  draw(width: number, done: () => void): void;
}

export function scheduleDrawing(targets: readonly DrawTarget[]): { wake(): void } {
  const progress: Progress = {
    total: targets.length,
    started: new Set(),
    painted: new Set(),
    firstScreen: null,
    firstScreenMarked: false,
    allMarked: false,
    widths: new Map(),
  };
  const start = (batch: readonly DrawTarget[]): void => startBatch(batch, targets, progress);
  const drawMore = backgroundDrawing(targets, start);
  // A filter, an opened group or a new window size changes widths: measure again.
  const wake = (): void => {
    progress.widths.clear();
    drawMore();
  };
  addEventListener("resize", () => progress.widths.clear());
  const byBox = new Map(targets.map((t) => [t.box, t]));
  const observer = new IntersectionObserver(
    (entries) => {
      const visible: DrawTarget[] = [];
      for (const e of entries) {
        const t = byBox.get(e.target as HTMLElement);
        if (t !== undefined && e.isIntersecting) visible.push(t);
      }
      progress.firstScreen ??= firstScreenOf(entries, byBox);
      start(visible);
      for (const t of visible) if (progress.started.has(t)) observer.unobserve(t.box);
      checkMarks(progress);
      wake();
    },
    { rootMargin: "200px 0px" },
  );
  for (const t of targets) observer.observe(t.box);
  if (targets.length === 0) {
    // Nothing to draw: no observer callback will come to say so.
    progress.firstScreen = new Set();
    checkMarks(progress);
  }
  return { wake };
}

/** What has been drawn so far, and which of the marks have been set. */
interface Progress {
  readonly total: number;
  readonly started: Set<DrawTarget>;
  readonly painted: Set<DrawTarget>;
  /** The cards on screen when the page opened; null until the first observer callback. */
  firstScreen: Set<DrawTarget> | null;
  firstScreenMarked: boolean;
  allMarked: boolean;
  /**
   * The boxes' widths, read together. Reading one after a chart went in forces a layout of
   * the whole page; read all at once, the layout is done once instead of once per batch of the
   * ~200 charts drawn in the background.
   */
  readonly widths: Map<DrawTarget, number>;
}

/** Sets each mark once, as soon as what it stands for has been painted. */
function checkMarks(progress: Progress): void {
  const root = document.documentElement;
  const { firstScreen, painted } = progress;
  if (
    !progress.firstScreenMarked &&
    firstScreen !== null &&
    [...firstScreen].every((t) => painted.has(t))
  ) {
    progress.firstScreenMarked = true;
    performance.mark("benchgate:first-screen");
    root.dataset["drawn"] = "first-screen";
  }
  if (progress.firstScreenMarked && !progress.allMarked && painted.size === progress.total) {
    progress.allMarked = true;
    performance.mark("benchgate:all-drawn");
    root.dataset["drawn"] = "all";
  }
}

/** Draws a batch, at widths read for every chart not drawn yet when one is missing. */
function startBatch(
  batch: readonly DrawTarget[],
  all: readonly DrawTarget[],
  progress: Progress,
): void {
  const todo = batch.filter((t) => !progress.started.has(t));
  const { widths } = progress;
  if (todo.some((t) => !widths.has(t)))
    for (const t of all) if (!progress.started.has(t)) widths.set(t, t.box.clientWidth);
  todo.forEach((t) => {
    const width = widths.get(t) ?? 0;
    if (width === 0) return;
    progress.started.add(t);
    t.draw(width, () => {
      progress.painted.add(t);
      checkMarks(progress);
    });
  });
}

/**
 * Draws every target in the background, a slice at a time; the returned `wake` starts (or
 * restarts) a pass from the first target.
 */
function backgroundDrawing(
  targets: readonly DrawTarget[],
  start: (batch: readonly DrawTarget[]) => void,
): () => void {
  // Yield between slices through a message, not setTimeout: nested timeouts are clamped to
  // 4 ms, which would add seconds of idle time over a few hundred slices.
  const channel = new MessageChannel();
  let pumping = false;
  let next = 0;
  const pump = (): void => {
    const deadline = performance.now() + SLICE_MS;
    while (next < targets.length && performance.now() < deadline) {
      start(targets.slice(next, next + BATCH));
      next += BATCH;
    }
    if (next < targets.length) channel.port2.postMessage(null);
    else pumping = false;
  };
  channel.port1.onmessage = pump;
  return () => {
    // Start over: a filter or an opened group may have made earlier cards drawable.
    next = 0;
    if (!pumping) {
      pumping = true;
      channel.port2.postMessage(null);
    }
  };
}

/**
 * The first callback reports every observed card; what is inside the viewport itself (not the
 * margin drawn ahead of scrolling) is the first screen.
 */
function firstScreenOf(
  entries: readonly IntersectionObserverEntry[],
  byBox: ReadonlyMap<HTMLElement, DrawTarget>,
): Set<DrawTarget> {
  return new Set(
    entries
      .filter((e) => e.isIntersecting && e.boundingClientRect.top < window.innerHeight)
      .filter((e) => e.boundingClientRect.bottom > 0 && e.boundingClientRect.width > 0)
      .map((e) => byBox.get(e.target as HTMLElement) as DrawTarget),
  );
}
