// Webhook endpoints as their owner manages them (docs/api/webhooks.md): one API key's endpoints, each with the event
// stream's `types` and `companies` filters. The secret is answered by the creation and the rotation only.
import { randomBytes } from 'node:crypto';
import {
  EVENT_TYPES,
  type EventType,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_ENDPOINTS_PER_KEY_MAX,
  WEBHOOK_PREVIOUS_SECRET_MS,
} from '../../constants.ts';
import { AppError, notFound, validationError } from '../../errors.ts';
import type { Deps } from '../deps.ts';
import { resolveCompanyRefs } from '../events/filters.ts';
import { countEndpoints, type EndpointRow, endpointOf, listEndpoints } from './endpoint-rows.ts';
import { newWebhookSecret } from './signing.ts';
import { insertEndpoint, rotateEndpointSecret, setEndpointStatus } from './store.ts';
import { checkWebhookUrl } from './targets.ts';

type EndpointDeps = Pick<Deps, 'database' | 'config' | 'now'>;

/** An endpoint as its owner reads it. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  types: EventType[] | null;
  companies: string[] | null;
  status: 'ACTIVE' | 'DISABLED';
  disabledReason: 'OWNER' | 'FAILING' | null;
  disabledAt: string | null;
  failingSince: string | null;
  createdAt: string;
}

export const toWebhookEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  types: row.types as EventType[] | null,
  companies: row.companyIds,
  status: row.status,
  disabledReason: row.disabledReason,
  disabledAt: row.disabledAt?.toISOString() ?? null,
  failingSince: row.failingSince?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

export interface NewWebhookEndpoint {
  url: string;
  description?: string | undefined;
  types?: string[] | undefined;
  companies?: string[] | undefined;
}

/** The stream's resolution of the `companies` filter, its refusal naming the body's field. */
async function companiesOf(db: EndpointDeps['database']['db'], refs: string[]): Promise<Set<string>> {
  try {
    return await resolveCompanyRefs(db, refs);
  } catch (err) {
    if (err instanceof AppError && err.code === 'VALIDATION_ERROR') {
      throw validationError('body.companies', err.message.replace(/^query\.companies /, ''));
    }
    throw err;
  }
}

/** An owner's endpoint, or 404 (another key's endpoint is not found either). */
export async function webhookEndpointOf(deps: EndpointDeps, apiKeyId: string, id: string): Promise<EndpointRow> {
  const row = await endpointOf(deps.database.db, apiKeyId, id);
  if (!row) throw notFound(`No webhook endpoint "${id.slice(0, 64)}"`);
  return row;
}

export async function createWebhookEndpoint(
  deps: EndpointDeps,
  apiKeyId: string,
  input: NewWebhookEndpoint,
): Promise<WebhookEndpoint & { secret: string }> {
  const db = deps.database.db;
  const url = checkWebhookUrl(input.url, {
    production: deps.config.nodeEnv === 'production',
    allowLoopback: deps.config.webhookAllowLoopback,
  });
  const description = (input.description ?? '').trim();
  if (description.length > WEBHOOK_DESCRIPTION_MAX) {
    throw validationError('body.description', `must be at most ${WEBHOOK_DESCRIPTION_MAX} characters`);
  }
  const types = input.types === undefined ? null : [...new Set(input.types)];
  for (const t of types ?? []) {
    if (!(EVENT_TYPES as readonly string[]).includes(t)) {
      throw validationError(
        'body.types',
        `has unknown event type "${t.slice(0, 40)}": each must be one of ${EVENT_TYPES.join(', ')}`,
      );
    }
  }
  const companyIds = input.companies === undefined ? null : [...(await companiesOf(db, [...new Set(input.companies)]))];
  if ((await countEndpoints(db, apiKeyId)) >= WEBHOOK_ENDPOINTS_PER_KEY_MAX) {
    throw new AppError(
      'CONFLICT',
      `An API key holds at most ${WEBHOOK_ENDPOINTS_PER_KEY_MAX} webhook endpoints; this one has that many`,
    );
  }
  const secret = newWebhookSecret();
  const row = await insertEndpoint(db, {
    id: `whe_${randomBytes(12).toString('base64url')}`,
    apiKeyId,
    url,
    description,
    secret,
    types,
    companyIds,
    now: new Date(deps.now()),
  });
  return { ...toWebhookEndpoint(row), secret };
}

export async function listWebhookEndpoints(deps: EndpointDeps, apiKeyId: string): Promise<WebhookEndpoint[]> {
  return (await listEndpoints(deps.database.db, apiKeyId)).map(toWebhookEndpoint);
}

/** A new secret, answered once; the one before keeps signing beside it for WEBHOOK_PREVIOUS_SECRET_MS. */
export async function rotateWebhookSecret(
  deps: EndpointDeps,
  apiKeyId: string,
  id: string,
): Promise<WebhookEndpoint & { secret: string }> {
  const secret = newWebhookSecret();
  const until = new Date(deps.now() + WEBHOOK_PREVIOUS_SECRET_MS);
  const row = await rotateEndpointSecret(deps.database.db, apiKeyId, id, secret, until);
  if (!row) throw notFound(`No webhook endpoint "${id.slice(0, 64)}"`);
  return { ...toWebhookEndpoint(row), secret };
}

/** Disables an endpoint (its pending deliveries end FAILED) or enables it again (it gets the events from now on). */
export async function setWebhookEndpointStatus(
  deps: EndpointDeps,
  apiKeyId: string,
  id: string,
  status: 'ACTIVE' | 'DISABLED',
): Promise<WebhookEndpoint> {
  const row = await setEndpointStatus(deps.database.db, apiKeyId, id, status, new Date(deps.now()));
  if (!row) throw notFound(`No webhook endpoint "${id.slice(0, 64)}"`);
  return toWebhookEndpoint(row);
}
