// The side effects the pure parts need, in our own words. Real implementations live in io/;
// tests pass in-memory ones, so no module mocking is needed.

export interface DirEntry {
  readonly name: string;
  readonly kind: "file" | "dir" | "other";
}

/** Read-only access to files. Implementations refuse symlinks and cap sizes before reading. */
export interface FileReader {
  /** The whole file as UTF-8; throws InputError when it is missing, not a file, or over maxBytes. */
  readText(path: string, maxBytes: number): Promise<string>;
  /** Entries of a directory, sorted by name; throws InputError when it is missing or not a directory. */
  list(dir: string): Promise<readonly DirEntry[]>;
  /** The kind of entry at path, or undefined when nothing is there. Symlinks are "other". */
  kindOf(path: string): Promise<DirEntry["kind"] | undefined>;
}

/** Writes whole files atomically: a reader sees the old file or the new one, never half of one. */
export interface FileWriter {
  writeText(path: string, text: string): Promise<void>;
  /** The same for bytes (a file that is not text, e.g. an image on the history page). */
  writeBytes(path: string, data: Uint8Array): Promise<void>;
}
