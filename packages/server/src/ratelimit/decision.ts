/** The outcome of asking a limiter for one request, with what the response headers need. */
export interface Decision {
  allowed: boolean;
  /** The per-minute limit and the per-second (burst) limit that applied. */
  limit: number;
  burst: number;
  /** How many more the minute window admits now (never negative; 0 when refused). */
  remaining: number;
  /** Epoch ms at which the minute window is empty again if no further request is made. */
  resetAtMs: number;
  /** When refused: ms until a request would be admitted. 0 when allowed. */
  retryAfterMs: number;
  /** When refused: the window that is full (`minute` when both are). Undefined when allowed. */
  refusedBy: 'minute' | 'second' | undefined;
  /** The limiter's clock at the decision (Redis's own when shared). */
  nowMs: number;
}

export const MINUTE_MS = 60_000;
export const SECOND_MS = 1_000;
