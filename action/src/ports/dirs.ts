// Directories the runner creates, copies, locks and removes. The real implementation is
// io/node-dirs.ts.

export interface DirPort {
  /** A new empty directory under the system temp dir. */
  makeTemp(prefix: string): Promise<string>;
  ensure(dir: string): Promise<void>;
  /** Removes a directory tree; no error when it is already gone. */
  remove(dir: string): Promise<void>;
  /** Copies one file with its mode (an executable stays executable), replacing `to`. */
  copyFile(from: string, to: string): Promise<void>;
  /** Copies a directory tree, keeping modification times (Cargo's fingerprints use them). */
  copyTree(from: string, to: string): Promise<void>;
  /**
   * Creates `file` exclusively, holding this process's id, or reports who holds it. A lock whose
   * process is gone is taken over.
   */
  lock(file: string): Promise<{ release(): Promise<void> } | { heldBy: string }>;
  /** Names in a directory, or [] when it does not exist. */
  names(dir: string): Promise<readonly string[]>;
}
