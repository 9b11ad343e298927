import { AppError } from '../errors.js';

/**
 * `unavailable`: the provider could not answer now (timeout, connection refused or reset, 429,
 * 5xx) and the same call may succeed later. `error`: it answered, but with a refusal (a 4xx
 * other than 429) or with something we cannot use; retrying the same call will not help.
 */
export type ProviderFailureKind = 'unavailable' | 'error';

/** Which outside service failed: named in messages so an operator knows which setting to check. */
export type ProviderService = 'embeddings' | 'llm';

export interface ProviderErrorOptions {
  service: ProviderService;
  /** The provider's HTTP status, when it answered with one. */
  status?: number;
  /** From the provider's Retry-After header, when it sent one (429, 503). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * A failure of an outside provider. Its message is written for operators and may quote the
 * provider's own error text, but never the API key (see `redactSecret`).
 */
export class ProviderError extends Error {
  readonly kind: ProviderFailureKind;
  readonly service: ProviderService;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: ProviderFailureKind, message: string, options: ProviderErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.service = options.service;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * The client's view of a provider failure: 503 PROVIDER_UNAVAILABLE (with `retry_after`, which
 * the error handler also sends as the Retry-After header) or 502 PROVIDER_ERROR. The provider's
 * own message stays in the logs: it can name internal hosts and is no concern of the client.
 */
export function providerAppError(error: ProviderError): AppError {
  const details: Record<string, unknown> = { provider: error.service };
  if (error.kind === 'error') {
    return new AppError('PROVIDER_ERROR', `the ${error.service} provider returned an error`, details);
  }
  if (error.retryAfterSeconds !== undefined) details.retry_after = Math.max(1, Math.ceil(error.retryAfterSeconds));
  return new AppError('PROVIDER_UNAVAILABLE', `the ${error.service} provider is unavailable; retry later`, details);
}

/** Replaces every occurrence of the key, which providers sometimes quote back in their error text. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}
