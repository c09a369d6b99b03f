// One place maps every error to its HTTP status, and writes it in the envelope of its route family: internal, v1 or
// bare (NFT routes). Each family is a plugin that installs its own handlers (installErrorHandlers).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADDRESS_FORMAT, ADDRESS_RULE } from '../address.ts';

import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, chainUnavailable, type ErrorCode, type ErrorDetail, isChainUnavailable } from '../errors.ts';
import { WALLET_CHALLENGE } from './auth/index.ts';
import { meta } from './envelope.ts';

export const codeToStatus: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  GAS_BUDGET_EXCEEDED: 429,
  MODEL_SPEND_CAP_REACHED: 429,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  RATE_LIMITED: 429,
  EVENTS_EXPIRED: 410,
  CHAIN_UNAVAILABLE: 503,
  DATABASE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

/** The error envelope of a route family: the internal API's, the public v1 API's, or the NFT routes' bare one. */
export type EnvelopeKind = 'internal' | 'v1' | 'bare';

/**
 * The envelope of an error raised before any route was found (the router refused the path itself): the only place
 * a URL decides. Every route family answers its own errors with the handlers `installErrorHandlers` gives it.
 */
export function envelopeOfUnroutedUrl(url: string): EnvelopeKind {
  if (url.startsWith('/api/v1/') || url === '/api/v1') return 'v1';
  if (url.startsWith('/api/nft/')) return 'bare';
  return 'internal';
}

interface Mapped {
  status: number;
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[] | undefined;
  headers?: Record<string, string> | undefined;
}

interface AjvError {
  instancePath?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** The most validation details one answer lists (a route validating with allErrors may find many more). */
export const VALIDATION_DETAILS_MAX = 50;

function validationDetails(err: FastifyError): ErrorDetail[] {
  const context = (err as { validationContext?: string }).validationContext ?? 'body';
  const where = context === 'querystring' ? 'query' : context;
  const details = ((err.validation ?? []) as AjvError[]).map((e) => {
    const segments = (e.instancePath ?? '').split('/').filter(Boolean);
    if (e.keyword === 'required' && typeof e.params.missingProperty === 'string')
      segments.push(e.params.missingProperty);
    if (e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string') {
      segments.push(e.params.additionalProperty);
    }
    const path = [where, ...segments].join('.');
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) {
      message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    } else if (e.keyword === 'additionalProperties') {
      message = 'is not an allowed field';
    } else if (e.keyword === 'format' && e.params.format === ADDRESS_FORMAT) {
      message = `must be an Ethereum address: ${ADDRESS_RULE}`;
    } else if (e.keyword === 'required') {
      message = 'is required';
    } else if (e.keyword === 'type' && context === 'querystring') {
      message = `${message} (given once)`;
    }
    return { path, message };
  });
  // A query is checked with every error (src/http/validation.ts): one detail per parameter, its first violation
  // (a repeated enum parameter breaks both its type and its enum).
  const kept =
    context === 'querystring' ? details.filter((d, i) => details.findIndex((o) => o.path === d.path) === i) : details;
  return kept.slice(0, VALIDATION_DETAILS_MAX);
}

/** Seconds a 503 (the chain or the database unavailable) asks a client to wait before retrying (`Retry-After`). */
export const UNAVAILABLE_RETRY_AFTER_S = 5;
const unavailableHeaders = { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) };

export function mapError(err: unknown): Mapped {
  if (err instanceof AppError) {
    const status = codeToStatus[err.code];
    return {
      status,
      code: err.code,
      message: err.message,
      details: err.details,
      headers: status === 503 ? { ...unavailableHeaders, ...err.headers } : err.headers,
    };
  }
  if (isChainUnavailable(err)) return mapError(chainUnavailable(err));
  if (isDatabaseUnavailable(err)) {
    // A restart or failover of PostgreSQL: the pool reconnects by itself, so the client should simply retry.
    return {
      status: 503,
      code: 'DATABASE_UNAVAILABLE',
      message: 'The database is unavailable; try again shortly',
      headers: unavailableHeaders,
    };
  }
  const fe = err as FastifyError;
  if (fe?.validation) {
    const details = validationDetails(fe);
    const message = details.map((d) => `${d.path} ${d.message}`).join('; ') || 'Invalid request';
    return { status: 400, code: 'VALIDATION_ERROR', message, details };
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code: ErrorCode =
      status === 401
        ? 'UNAUTHORIZED'
        : status === 403
          ? 'FORBIDDEN'
          : status === 404
            ? 'NOT_FOUND'
            : status === 429
              ? 'RATE_LIMITED'
              : 'BAD_REQUEST';
    // Fastify's own 4xx messages (bad JSON, body too large, unsupported media type) are safe to show.
    return { status, code, message: fe.message || 'Bad request' };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'Internal error; the request id identifies it in the logs' };
}

export function sendError(reply: FastifyReply, envelope: EnvelopeKind, mapped: Mapped) {
  if (mapped.headers) reply.headers(mapped.headers);
  reply.status(mapped.status).type('application/json; charset=utf-8');
  const error = { code: mapped.code, message: mapped.message, ...(mapped.details ? { details: mapped.details } : {}) };
  switch (envelope) {
    case 'v1':
      return reply.send({ error, meta: meta() });
    case 'bare':
      return reply.send({ error: mapped.message });
    default:
      return reply.send({ success: false, error });
  }
}

/** The error handler of a route family: 5xx logged with the error, 4xx at info with their code. */
export function errorHandler(envelope: EnvelopeKind) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapError(err);
    // Every 401 names the scheme to authenticate with (RFC 9110 11.6.1). The API-key and secret guards set their
    // own challenge; every other 401 comes from a wallet signature check.
    if (mapped.status === 401 && !reply.hasHeader('www-authenticate')) {
      reply.header('www-authenticate', WALLET_CHALLENGE);
    }
    if (mapped.status >= 500) {
      request.log.error({ err }, 'request failed');
    } else {
      request.log.info({ code: mapped.code, status: mapped.status }, mapped.message);
    }
    return sendError(reply, envelope, mapped);
  };
}

/**
 * Makes `app` (a route family's plugin, encapsulated) answer its errors and unknown routes under its prefix in
 * `envelope`.
 */
export function installErrorHandlers(
  app: FastifyInstance<any, any, any, any, any>,
  envelope: EnvelopeKind,
  /** Answers what is not the API's (the web app's pages); true when it did. */
  pages?: (request: FastifyRequest, reply: FastifyReply) => boolean,
) {
  app.setErrorHandler(errorHandler(envelope));
  app.setNotFoundHandler((request, reply) => {
    if (pages?.(request, reply)) return reply;
    const path = request.url.split('?')[0]!;
    const allowed = request.server.allowedMethods?.(path) ?? [];
    if (allowed.length > 0) {
      return sendError(reply, envelope, {
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: `${path} does not take ${request.method}; it takes ${allowed.join(', ')}`,
        headers: { allow: allowed.join(', ') },
      });
    }
    return sendError(reply, envelope, {
      status: 404,
      code: 'NOT_FOUND',
      message: `No route ${request.method} ${path}`,
    });
  });
}
