import pino from 'pino';

/**
 * Where logs go: stdout, written asynchronously in 4 KiB batches (and at least every second).
 *
 * pino's default destination writes each line synchronously, and when stdout is a pipe whose
 * reader falls behind, a full pipe makes it sleep 100 ms with the event loop blocked — under
 * load that showed as a p99 of 250 ms on list requests. Asynchronous writes never block the
 * loop; if the reader stays behind, lines queue up to 16 MiB and then are dropped rather than
 * stalling requests. The buffer is flushed when the server closes.
 */
export type LogStream = ReturnType<typeof pino.destination>;

export function createLogStream(): LogStream {
  return pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
    maxLength: 16 * 1024 * 1024,
    periodicFlush: 1000,
  });
}

/** Writes out what is buffered and stops the periodic flush (stdout itself stays open). */
export function closeLogStream(stream: LogStream): void {
  try {
    stream.flushSync();
  } catch {
    // Nothing buffered, or a write still in flight: it completes on its own.
  }
  stream.end();
}
