// Every child process and temporary resource a benchmark creates is registered here, so that it
// is released on every exit path: normal end, thrown error, Ctrl-C or SIGTERM.
const children = new Set();
const cleanups = [];

export function trackChild(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** `fn` (sync or async) runs once at the end, newest first. Returns a function that runs it now. */
export function onCleanup(fn) {
  let done = false;
  const run = async () => {
    if (done) return;
    done = true;
    cleanups.splice(cleanups.indexOf(run), 1);
    await fn();
  };
  cleanups.push(run);
  return run;
}

function killChildren() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Stops every tracked child still running: SIGTERM, then SIGKILL after 5 s. */
export async function stopChildren() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
  const deadline = Date.now() + 5000;
  while (children.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  killChildren();
}

/** Stops every tracked child and runs every pending clean-up (errors are reported, not thrown). */
export async function cleanupAll() {
  await stopChildren();
  for (const run of [...cleanups].reverse()) {
    try {
      await run();
    } catch (err) {
      console.error(`clean-up failed: ${err?.message ?? err}`);
    }
  }
}

// Last resort: a synchronous exit still kills the children (temporary files may remain).
process.once('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping servers and cleaning up`);
    cleanupAll().finally(() => process.exit(130));
  });
}

/** An entry point's body: an error is printed and fails the process, and everything is released. */
export async function runMain(main) {
  try {
    await main();
  } catch (err) {
    console.error(err.stack ?? String(err));
    process.exitCode = 1;
  } finally {
    await cleanupAll();
  }
}
