/**
 * Every response passes through `process.nextTick` about seven times (Node's streams schedule
 * their callbacks with it). Left to warm up under live traffic, V8 compiled it in most server
 * starts with its object literal's property definitions going through the runtime — 2–3 µs more
 * per request, about 8% of a snapshot read, for the life of the process. Called many times with
 * each number of arguments it takes before the server answers anything, it was compiled the fast
 * way in every start measured (docs/decisions.md). Costs about 20 ms of start-up.
 */
export function warmUpNextTick(rounds = 2000): void {
  const noop = () => undefined;
  for (let i = 0; i < rounds; i++) {
    process.nextTick(noop);
    process.nextTick(noop, i);
    process.nextTick(noop, i, i);
    process.nextTick(noop, i, i, i);
  }
}
