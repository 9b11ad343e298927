/**
 * A value that may be ready now or later. The embedded SQLite store answers synchronously and
 * PostgreSQL asynchronously; the hottest paths (authentication, GET of one snapshot) keep the
 * synchronous answer synchronous instead of paying a promise and a suspension per request.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `fn(value)`, now if the value is ready, else when it is. */
export function then<T, R>(value: MaybePromise<T>, fn: (ready: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
