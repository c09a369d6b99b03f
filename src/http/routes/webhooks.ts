// Webhook endpoints of the calling API key under /api/v1/webhooks (docs/api/webhooks.md): create, list, read,
// rotate the secret, disable and enable, and the deliveries and attempts of an endpoint. Registered by v1.ts.
import { WEBHOOK_ENDPOINTS_PER_KEY_MAX } from '../../constants.ts';
import {
  createWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  setWebhookEndpointStatus,
  toWebhookEndpoint,
  webhookEndpointOf,
} from '../../domain/webhooks/endpoints.ts';
import { listAttempts, listDeliveries } from '../../domain/webhooks/store.ts';
import { validationError } from '../../errors.ts';
import { decodeCursor, encodeCursor } from '../../page-cursor.ts';
import { requireApiKey } from '../auth/index.ts';
import { linkNextPage, v1Body, v1CursorPage, v1Page } from '../envelope.ts';
import { v1Errors } from '../schemas/common.ts';
import {
  CreateWebhookBody,
  WebhookAttemptsQuery,
  WebhookAttemptsResponse,
  WebhookDeliveriesResponse,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookPageQuery,
  WebhookParams,
  WebhookSecretResponse,
} from '../schemas/webhooks.ts';
import type { App, RouteOptions } from '../types.ts';

const security = [{ apiKey: [] }];
const tags = ['webhooks'];

/** The id a cursor of these lists holds: the last item's id, decimal. */
function beforeOf(cursor: string | undefined): bigint | undefined {
  if (cursor === undefined) return undefined;
  const [id] = decodeCursor(cursor, 1);
  if (!/^[0-9]{1,18}$/.test(id!))
    throw validationError('query.cursor', 'is not a cursor this list gave (pagination.nextCursor)');
  return BigInt(id!);
}

/** A page of items newest first: `limit + 1` were read, so whether more follow is known exactly. */
function cursorPage<T extends { id: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return v1CursorPage(items, {
    page: 1,
    limit,
    total: items.length,
    hasMore,
    nextCursor: hasMore ? encodeCursor([items.at(-1)!.id]) : null,
  });
}

export default async function webhookRoutes(app: App, { deps }: RouteOptions) {
  const apiKey = requireApiKey(deps);
  const db = deps.database.db;

  app.post(
    '/webhooks',
    {
      preValidation: apiKey,
      schema: {
        tags,
        summary: 'Register a webhook endpoint for this API key; the answer holds its signing secret, shown once',
        description: `Deliveries of the platform events after its creation that pass its filters, signed per Standard Webhooks (docs/api/webhooks.md). At most ${WEBHOOK_ENDPOINTS_PER_KEY_MAX} endpoints a key (409 CONFLICT past it); 400 VALIDATION_ERROR for a URL that is not http(s), carries credentials or points to a loopback, private or link-local address.`,
        security,
        body: CreateWebhookBody,
        response: { 201: WebhookSecretResponse, ...v1Errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(v1Body(await createWebhookEndpoint(deps, request.apiKeyId!, request.body))),
  );

  app.get(
    '/webhooks',
    {
      preValidation: apiKey,
      schema: {
        tags,
        summary: "This API key's webhook endpoints, oldest first (all of them: a key holds a few at most)",
        security,
        response: { 200: WebhookEndpointListResponse, ...v1Errors },
      },
    },
    async (request) => {
      const list = await listWebhookEndpoints(deps, request.apiKeyId!);
      return v1Page(list, 1, WEBHOOK_ENDPOINTS_PER_KEY_MAX, list.length);
    },
  );

  app.get(
    '/webhooks/:id',
    {
      preValidation: apiKey,
      schema: {
        tags,
        summary: 'A webhook endpoint of this API key: its filters and status (DISABLED, and why, once it is)',
        security,
        params: WebhookParams,
        response: { 200: WebhookEndpointResponse, ...v1Errors },
      },
    },
    async (request) => v1Body(toWebhookEndpoint(await webhookEndpointOf(deps, request.apiKeyId!, request.params.id))),
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      preValidation: apiKey,
      schema: {
        tags,
        summary: 'A new signing secret, shown once; the previous one keeps signing beside it for 24 hours',
        security,
        params: WebhookParams,
        response: { 200: WebhookSecretResponse, ...v1Errors },
      },
    },
    async (request) => v1Body(await rotateWebhookSecret(deps, request.apiKeyId!, request.params.id)),
  );

  for (const [action, status, summary] of [
    ['disable', 'DISABLED', 'Disable a webhook endpoint: nothing more is sent, and its pending deliveries end FAILED'],
    [
      'enable',
      'ACTIVE',
      'Enable a disabled webhook endpoint again: it receives the events published from now on, and its failure clock starts over',
    ],
  ] as const) {
    app.post(
      `/webhooks/:id/${action}`,
      {
        preValidation: apiKey,
        schema: {
          tags,
          summary,
          security,
          params: WebhookParams,
          response: { 200: WebhookEndpointResponse, ...v1Errors },
        },
      },
      async (request) => v1Body(await setWebhookEndpointStatus(deps, request.apiKeyId!, request.params.id, status)),
    );
  }

  app.get(
    '/webhooks/:id/deliveries',
    {
      preValidation: apiKey,
      onSend: linkNextPage,
      schema: {
        tags,
        summary: "A webhook endpoint's deliveries, newest first, paged by cursor",
        description:
          'One delivery per event the endpoint receives, kept 7 days after it ends. `total` counts the items of this page.',
        security,
        params: WebhookParams,
        querystring: WebhookPageQuery,
        response: { 200: WebhookDeliveriesResponse, ...v1Errors },
      },
    },
    async (request) => {
      const endpoint = await webhookEndpointOf(deps, request.apiKeyId!, request.params.id);
      const { limit, cursor } = request.query;
      const rows = await listDeliveries(db, endpoint.id, beforeOf(cursor), limit + 1);
      return cursorPage(
        rows.map((r) => ({
          ...r,
          nextAttemptAt: r.nextAttemptAt === null ? null : new Date(r.nextAttemptAt).toISOString(),
          createdAt: new Date(r.createdAt).toISOString(),
          completedAt: r.completedAt === null ? null : new Date(r.completedAt).toISOString(),
        })),
        limit,
      );
    },
  );

  app.get(
    '/webhooks/:id/attempts',
    {
      preValidation: apiKey,
      onSend: linkNextPage,
      schema: {
        tags,
        summary:
          "A webhook endpoint's delivery attempts (of one delivery with `delivery`), newest first, paged by cursor",
        description:
          "Each attempt's HTTP status, latency and the first 1,024 bytes of the answer, or why no answer came. `total` counts the items of this page.",
        security,
        params: WebhookParams,
        querystring: WebhookAttemptsQuery,
        response: { 200: WebhookAttemptsResponse, ...v1Errors },
      },
    },
    async (request) => {
      const endpoint = await webhookEndpointOf(deps, request.apiKeyId!, request.params.id);
      const { limit, cursor, delivery } = request.query;
      const rows = await listAttempts(db, endpoint.id, {
        deliveryId: delivery === undefined ? undefined : BigInt(delivery),
        before: beforeOf(cursor),
        limit: limit + 1,
      });
      return cursorPage(
        rows.map((r) => ({ ...r, attemptedAt: new Date(r.attemptedAt).toISOString() })),
        limit,
      );
    },
  );
}
