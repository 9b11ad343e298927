// A one-line progress bar on stderr: redrawn in place on a terminal, one line at the end otherwise.
export function progress(label, total) {
  const started = Date.now();
  const tty = process.stderr.isTTY;
  let done = 0;
  let drawnAt = 0;
  const draw = () => {
    const share = total === 0 ? 1 : done / total;
    const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '.');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return `${label} [${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${done}/${total} ${seconds}s`;
  };
  return {
    tick(n = 1) {
      done += n;
      if (tty && Date.now() - drawnAt > 100) {
        drawnAt = Date.now();
        process.stderr.write(`\r${draw()}`);
      }
    },
    end() {
      process.stderr.write(`${tty ? '\r' : ''}${draw()}\n`);
    },
  };
}
