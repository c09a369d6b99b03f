// The one error type of the service. Domain code throws it with a code; src/http/errors.ts maps codes to statuses.

export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'GAS_BUDGET_EXCEEDED',
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
