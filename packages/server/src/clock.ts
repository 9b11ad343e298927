/** Time as the service sees it; tests inject their own. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const isoTime = (ms: number): string => new Date(ms).toISOString();
