import cliProgress from 'cli-progress';
import type { ImportProgress } from '../domain/transfer/index.js';

/** How often a plain progress line is written when stderr is not a terminal. */
const PLAIN_EVERY_MS = 2000;

export interface ProgressView {
  update(progress: ImportProgress): void;
  stop(): void;
}

const PHASES = { check: 'checking', import: 'importing' } as const;
const UNITS = { check: 'bytes', import: 'records' } as const;

/**
 * A progress bar with rate and ETA on a terminal (cli-progress), and on anything else (a log, a
 * pipe, CI) a plain line every two seconds and at the end of each phase — never the control
 * characters a bar redraws itself with.
 */
export function progressView(stream: NodeJS.WriteStream = process.stderr): ProgressView {
  return stream.isTTY ? terminalBar(stream) : plainLines(stream);
}

function terminalBar(stream: NodeJS.WriteStream): ProgressView {
  let phase: ImportProgress['phase'] | undefined;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{phase} [{bar}] {percentage}% | {value}/{total} {unit} | {speed} | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  const clock = phaseClock();
  return {
    update(progress) {
      const since = clock.seen(progress);
      const speed = shownRate(progress.done, since);
      if (progress.phase !== phase) {
        if (phase !== undefined) bar.stop();
        phase = progress.phase;
        bar.start(progress.total, progress.done, { phase: PHASES[phase], unit: UNITS[phase], speed });
        return;
      }
      bar.update(progress.done, { speed });
    },
    stop: () => bar.stop(),
  };
}

function plainLines(stream: NodeJS.WriteStream): ProgressView {
  let phase: ImportProgress['phase'] | undefined;
  let last: ImportProgress | undefined;
  let lastWrite = 0;
  let written: ImportProgress | undefined;
  const clock = phaseClock();
  let since = clock.startedAt;
  const write = (progress: ImportProgress, phaseSince: number) => {
    const percent = progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 100;
    const speed = rate(progress.done, phaseSince);
    const eta = speed !== undefined && speed > 0 ? Math.ceil((progress.total - progress.done) / speed) : undefined;
    stream.write(
      `${PHASES[progress.phase]}: ${progress.done}/${progress.total} ${UNITS[progress.phase]} (${percent}%)` +
        `${speed === undefined ? '' : `, ${speed}/s`}${eta === undefined ? '' : `, ETA ${eta} s`}\n`,
    );
    lastWrite = Date.now();
    written = progress;
  };
  return {
    update(progress) {
      const phaseSince = clock.seen(progress);
      if (progress.phase !== phase) {
        if (last && last.phase === phase && last !== written) write(last, since);
        phase = progress.phase;
      }
      since = phaseSince;
      last = progress;
      if (Date.now() - lastWrite >= PLAIN_EVERY_MS) write(progress, since);
    },
    stop: () => {
      if (last && last !== written) write(last, since);
    },
  };
}

/**
 * When each phase began. A phase's work starts when the one before it ended (its last report),
 * not at its own first report: a small file's import phase is often reported once, done, and
 * timed from that report it had taken no time and moved "0/s".
 */
export function phaseClock(now: () => number = Date.now) {
  const startedAt = now();
  let phase: ImportProgress['phase'] | undefined;
  let phaseStart = startedAt;
  let lastReport = startedAt;
  return {
    startedAt,
    /** Notes a report; returns when its phase began. */
    seen(progress: ImportProgress): number {
      if (progress.phase !== phase) {
        phase = progress.phase;
        phaseStart = lastReport;
      }
      lastReport = now();
      return phaseStart;
    },
  };
}

/**
 * Items a second since `since`, as a whole number (at least 1 once anything is done), or
 * undefined before anything is done: a rate is never shown as 0/s while work moves.
 */
export function rate(done: number, since: number, now = Date.now()): number | undefined {
  if (done <= 0) return undefined;
  const seconds = Math.max(0.001, (now - since) / 1000);
  return Math.max(1, Math.round(done / seconds));
}

const shownRate = (done: number, since: number) => {
  const speed = rate(done, since);
  return speed === undefined ? '…/s' : `${speed}/s`;
};
