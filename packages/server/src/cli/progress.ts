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
      format: '{phase} [{bar}] {percentage}% | {value}/{total} {unit} | {speed}/s | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = { at: Date.now(), from: 0 };
  return {
    update(progress) {
      if (progress.phase !== phase) {
        if (phase !== undefined) bar.stop();
        phase = progress.phase;
        started.at = Date.now();
        started.from = progress.done;
        bar.start(progress.total, progress.done, { phase: PHASES[phase], unit: UNITS[phase], speed: 0 });
        return;
      }
      bar.update(progress.done, { speed: rate(progress.done - started.from, started.at) });
    },
    stop: () => bar.stop(),
  };
}

function plainLines(stream: NodeJS.WriteStream): ProgressView {
  let phase: ImportProgress['phase'] | undefined;
  let last: ImportProgress | undefined;
  let lastWrite = 0;
  let written: ImportProgress | undefined;
  const started = { at: Date.now(), from: 0 };
  const write = (progress: ImportProgress) => {
    const percent = progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 100;
    const speed = rate(progress.done - started.from, started.at);
    const eta = speed > 0 ? Math.ceil((progress.total - progress.done) / speed) : undefined;
    stream.write(
      `${PHASES[progress.phase]}: ${progress.done}/${progress.total} ${UNITS[progress.phase]} (${percent}%), ` +
        `${speed}/s${eta === undefined ? '' : `, ETA ${eta} s`}\n`,
    );
    lastWrite = Date.now();
    written = progress;
  };
  return {
    update(progress) {
      if (progress.phase !== phase) {
        if (last && last.phase === phase && last !== written) write(last);
        phase = progress.phase;
        started.at = Date.now();
        started.from = progress.done;
      }
      last = progress;
      if (Date.now() - lastWrite >= PLAIN_EVERY_MS) write(progress);
    },
    stop: () => {
      if (last && last !== written) write(last);
    },
  };
}

function rate(done: number, since: number): number {
  const seconds = (Date.now() - since) / 1000;
  return seconds > 0 ? Math.round(done / seconds) : 0;
}
