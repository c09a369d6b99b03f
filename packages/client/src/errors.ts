// The error a call throws for an answer other than 2xx: the status, and the v1 error envelope's code, message and
// details when the answer had one.
import type { V1Error } from './api-types.js';

/** An answer other than 2xx, with the v1 error envelope's code, message and details when it had one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: V1Error['error']['details'];
  /** Seconds, from Retry-After (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: unknown, headers?: Headers) {
    const error = (body as Partial<V1Error> | undefined)?.error;
    super(error ? `${status} ${error.code}: ${error.message}` : `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = error?.code;
    this.details = error?.details;
    const retry = Number(headers?.get('retry-after') ?? Number.NaN);
    this.retryAfter = Number.isFinite(retry) ? retry : undefined;
  }
}
