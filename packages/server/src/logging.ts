import pino from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'auto' | 'json' | 'pretty';

/** Whether logs are written for a person: asked for, or (auto) stdout is a terminal. */
export function prettyLogs(format: LogFormat = 'auto', stdoutIsTerminal = process.stdout.isTTY === true): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}

interface Destination {
  write(text: string): unknown;
  flushSync?(): void;
  end(): void;
}

/**
 * One line per event a person can read (pino-pretty, in this process rather than a worker
 * thread: at a terminal the volume is small): time, level, message, then the event's fields.
 */
function prettyDestination(): Destination {
  return pretty({
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
  });
}

/**
 * Lines are handed to the file descriptor in batches of at least this many characters (a
 * Linux pipe's whole buffer: one write fills what the reader can take at once)…
 */
const BATCH_CHARS = 64 * 1024;
/** …or after this long, whichever comes first. */
const FLUSH_EVERY_MS = 1000;
/** Past this backlog lines are dropped rather than stalling requests. */
const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

/**
 * Where logs go: stdout, written asynchronously in batches.
 *
 * pino's default destination writes each line synchronously, and when stdout is a pipe whose
 * reader falls behind, a full pipe makes it sleep 100 ms with the event loop blocked — under
 * load that showed as a p99 of 250 ms on list requests. sonic-boom in asynchronous mode never
 * blocks the loop, but it measures the UTF-8 length of its whole pending buffer on every write
 * (up to 16 KiB, flattened each time): about 1 µs per request line. So lines are gathered here
 * and sonic-boom gets one string per batch: each write costs a trip through libuv's thread pool, and
batches of 4 KiB cost 1 µs more per line than batches of 64 KiB. If the reader stays behind, batches queue up to
 * 16 MiB and then are dropped. Everything gathered is written out when the server closes.
 */
export class LogStream {
  private readonly destination: Destination;
  private lines: string[] = [];
  private chars = 0;
  private readonly timer = setInterval(() => this.flush(), FLUSH_EVERY_MS).unref();

  /** `pretty`: lines for a person (prettyLogs); otherwise the JSON lines as they are. */
  private readonly immediate: boolean;

  constructor(options: { pretty?: boolean } = {}) {
    this.immediate = options.pretty === true;
    this.destination = options.pretty
      ? prettyDestination()
      : pino.destination({ dest: 1, sync: false, maxLength: MAX_BACKLOG_BYTES });
  }

  /** pino's destination interface: one serialized line, newline included. */
  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    // A person watching a terminal sees each event as it happens; batches are for machines.
    if (this.chars >= BATCH_CHARS || this.immediate) this.flush();
  }

  /** Hands what is gathered to the destination, which writes it asynchronously. */
  flush(): void {
    if (this.lines.length === 0) return;
    const batch = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.destination.write(batch);
  }

  /** Writes out everything gathered and stops the timer (stdout itself stays open). */
  close(): void {
    clearInterval(this.timer);
    this.flush();
    try {
      this.destination.flushSync?.();
    } catch {
      // Nothing buffered, or a write still in flight: it completes on its own.
    }
    this.destination.end();
  }
}
