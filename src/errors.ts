// The one error type of the service. Domain code throws it with a code; src/http/errors.ts maps codes to statuses.
import { BaseError, HttpRequestError, TimeoutError } from 'viem';

export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'RATE_LIMITED',
  'EVENTS_EXPIRED',
  'GAS_BUDGET_EXCEEDED',
  'MODEL_SPEND_CAP_REACHED',
  'CHAIN_UNAVAILABLE',
  'DATABASE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  /** Extra response headers, e.g. Retry-After on RATE_LIMITED. */
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const unauthorized = (message: string) => new AppError('UNAUTHORIZED', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const validationError = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', `${path}: ${message}`, { details: [{ path, message }] });

/**
 * True when a chain call failed because the node did not answer (viem's timeout or HTTP failure anywhere in the
 * cause chain), or the error was already mapped to CHAIN_UNAVAILABLE: the one classification of a chain outage,
 * used by the chain calls (`onChain`), the HTTP error mapper and the RPC error counter. A contract revert is not one.
 */
export function isChainUnavailable(err: unknown): boolean {
  if (err instanceof AppError) return err.code === 'CHAIN_UNAVAILABLE';
  if (!(err instanceof BaseError)) return false;
  const cause = err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError);
  return cause instanceof HttpRequestError || cause instanceof TimeoutError;
}

/** The CHAIN_UNAVAILABLE error (503) for a chain call that did not answer. */
export function chainUnavailable(err: unknown): AppError {
  return new AppError('CHAIN_UNAVAILABLE', 'The chain RPC did not answer in time; try again shortly', { cause: err });
}
