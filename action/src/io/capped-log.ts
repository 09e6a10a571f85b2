// The log files benchgate writes for its steps (OUT/logs/…), capped: a server that writes to
// stderr in a loop, or a benchmark that prints every iteration, must not fill the disk. A file
// keeps its first LOG_HEAD_BYTES (shared by every process that writes to it, as a side's build
// steps or a load suite's server and load generator do) and each process's last LOG_TAIL_BYTES,
// after a note of how many bytes were dropped: the end, where an error usually is, survives.
import { createWriteStream, statSync } from "node:fs";

export const LOG_HEAD_BYTES = 4 * 1024 * 1024;
export const LOG_TAIL_BYTES = 256 * 1024;

export interface CappedLog {
  write(chunk: Buffer): void;
  /** Writes the kept tail after the note of what was dropped, and closes the file. */
  end(): Promise<void>;
}

/** Bytes written to each open file by this process (and found in it at the first open). */
const written = new Map<string, { bytes: number; writers: number }>();

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // not there yet
  }
}

/** Opens `file` for appending one process's output, under the caps above. */
export function openCappedLog(
  file: string,
  caps: { head: number; tail: number } = { head: LOG_HEAD_BYTES, tail: LOG_TAIL_BYTES },
): CappedLog {
  const shared = written.get(file) ?? { bytes: sizeOf(file), writers: 0 };
  shared.writers += 1;
  written.set(file, shared);
  const stream = createWriteStream(file, { flags: "a" });
  // Errors (a full disk) surface through the step's own failure; a log is never worth a crash.
  stream.on("error", () => undefined);
  let tail: Buffer[] = [];
  let tailBytes = 0;
  let dropped = 0;
  const keepTail = (chunk: Buffer): void => {
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tailBytes - (tail[0]?.length ?? 0) >= caps.tail) {
      const first = tail.shift() as Buffer;
      tailBytes -= first.length;
      dropped += first.length;
    }
  };
  return {
    write: (chunk) => {
      const room = Math.max(0, caps.head - shared.bytes);
      if (room > 0) {
        const head = chunk.subarray(0, room);
        stream.write(head);
        shared.bytes += head.length;
      }
      if (chunk.length > room) keepTail(chunk.subarray(room));
    },
    end: () =>
      new Promise((resolve) => {
        shared.writers -= 1;
        if (shared.writers === 0) written.delete(file);
        if (tailBytes > caps.tail) {
          const over = tailBytes - caps.tail;
          tail = [Buffer.concat(tail).subarray(over)];
          dropped += over;
        }
        if (dropped > 0)
          stream.write(
            `\n… benchgate: ${dropped} bytes of this output dropped (a log keeps its first ${caps.head} bytes and each process's last ${caps.tail})\n`,
          );
        for (const chunk of tail) stream.write(chunk);
        stream.end(() => resolve());
      }),
  };
}
