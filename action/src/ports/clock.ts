// Time, passed in so tests can fix it.

export interface Clock {
  /** Milliseconds, monotonic. */
  readonly now: () => number;
  /** Wall-clock time for summaries. */
  readonly date: () => Date;
}
