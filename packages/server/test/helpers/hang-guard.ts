/**
 * The longest any one wait in the tests may last before it fails. It is not a judgement of
 * speed — on a busy machine a server start can take tens of seconds, and that is no failure —
 * but the point past which waiting longer will not help, so that a hang fails with output
 * instead of stalling the run. Time limits that are promises of ours (SHUTDOWN_TIMEOUT_MS, rate
 * windows, Retry-After) are asserted by the tests of those promises, never through this.
 */
export const HANG_GUARD_MS = 5 * 60_000;
