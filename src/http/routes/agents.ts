// Agent routes (docs/api/agents.md GET/POST /api/agents, GET/PUT/DELETE /api/agents/{id}) and the ERC-8004 registration file
// GET /api/agents/{id}/registration.json. Reads are public; changes need the creator's wallet signature.

import { AGENT_REGISTRATION_CACHE_CONTROL, STANDALONE_AGENTS_PER_SIGNER_PER_DAY } from '../../constants.ts';
import { createPageTotals } from '../../db/page-total.ts';
import { createAgent, terminateAgent, updateAgent } from '../../domain/agents/commands.ts';
import { getAgent, listAgents } from '../../domain/agents/queries.ts';
import { registrationFile } from '../../domain/agents/registration.ts';
import { agentCreatedView, agentDetailView, agentListView } from '../../domain/agents/views.ts';
import { requireWallet } from '../auth/index.ts';
import { ok } from '../envelope.ts';
import { recoveryRecorder } from '../plugins/idempotency.ts';
import {
  AgentCreatedResponse,
  AgentDetailResponse,
  AgentIdParams,
  AgentListResponse,
  AgentRegistration,
  AgentTerminatedResponse,
  CreateAgentBody,
  ListAgentsQuery,
  UpdateAgentBody,
} from '../schemas/agents.ts';
import { internalErrors } from '../schemas/common.ts';
import type { App, RouteOptions } from '../types.ts';
import { createValidatorCompiler } from '../validation.ts';

const tags = ['agents'];
const security = [{ wallet: [] }];

const allErrorsCompiler = createValidatorCompiler({ allErrors: true });

export default async function agentRoutes(app: App, { deps, reads }: RouteOptions) {
  const db = deps.database.db;
  const walletGuard = requireWallet(deps);
  // Kept until a table they were read from changes (read-cache.ts).
  const lists = reads.route('agents', { tables: ['agents', 'companies'] });
  const details = reads.route('agent', { tables: ['agents', 'companies'] });
  const totals = createPageTotals();

  app.get(
    '/api/agents',
    {
      schema: {
        tags,
        summary: "List agents, companies' agents first, each newest first, by status and creator",
        description:
          'Agents of companies come before stand-alone agents; within each, newest first. `creator` matches the creator wallet in any letter case.',
        querystring: ListAgentsQuery,
        response: { 200: AgentListResponse, ...internalErrors },
      },
    },
    async (request, reply) => {
      const { page, limit, status, creator } = request.query;
      return lists.send(reply, `${page}|${limit}|${status ?? ''}|${creator?.toLowerCase() ?? ''}`, async () => {
        const { rows, total } = await listAgents(db, { page, limit, status, creator }, totals);
        return {
          success: true as const,
          data: rows.map(agentListView),
          pagination: { page, limit, total, hasMore: page * limit < total },
        };
      });
    },
  );

  app.get(
    '/api/agents/:id',
    {
      schema: {
        tags,
        summary: 'One agent: identity, metrics and company included',
        params: AgentIdParams,
        response: { 200: AgentDetailResponse, ...internalErrors },
      },
    },
    async (request, reply) =>
      details.send(reply, request.params.id, async () => ok(agentDetailView(await getAgent(db, request.params.id)))),
  );

  app.get(
    '/api/agents/:id/registration.json',
    {
      schema: {
        tags,
        summary: 'ERC-8004 registration file of the agent (what its agentURI points to)',
        description: `The bare registration-v1 document, not wrapped in an envelope. Cache-Control: ${AGENT_REGISTRATION_CACHE_CONTROL}.`,
        params: AgentIdParams,
        response: { 200: AgentRegistration, ...internalErrors },
      },
    },
    async (request, reply) => {
      const file = registrationFile(await getAgent(db, request.params.id), {
        baseUrl: deps.config.baseUrl,
        chainId: deps.chain.chainId,
        identityRegistry: deps.chain.contracts.identityRegistry,
      });
      return reply.header('cache-control', AGENT_REGISTRATION_CACHE_CONTROL).send(file);
    },
  );

  app.post(
    '/api/agents',
    {
      preValidation: walletGuard,
      // A retry of a keyed creation that may have committed answers the agent it created (src/http/plugins/idempotency.ts).
      config: {
        idempotentRecovery: async ({ id }) => ({
          status: 201,
          payload: ok(agentCreatedView((await getAgent(db, id)).agent)),
        }),
      },
      // Every invalid field of the form at once, not only the first.
      validatorCompiler: allErrorsCompiler,
      schema: {
        tags,
        summary: 'Create a stand-alone agent (PENDING), owned by the signer',
        description: `No company; status PENDING. \`role\` is persona.role upper-cased when it names a C-suite role (CFO, CTO, CMO, COO, CSO, CISO, CRO), else null. Agents of a company come from deploy-suite. At most ${STANDALONE_AGENTS_PER_SIGNER_PER_DAY} per signer, and STANDALONE_AGENTS_PER_IP_PER_DAY (default 20) per client address whatever the signers, in any 24 hours: past either, 429 RATE_LIMITED with Retry-After. A stand-alone agent that never did anything (no wallet, identity or activity) is deleted STANDALONE_AGENT_RETENTION_MS (default 7 days) after its creation.`,
        security,
        body: CreateAgentBody,
        response: { 201: AgentCreatedResponse, ...internalErrors },
      },
    },
    async (request, reply) => {
      const client = { address: request.ip, perDay: deps.config.standaloneAgentsPerIpPerDay };
      const row = await createAgent(db, request.signer!, request.body, client, recoveryRecorder(request, 'agent'));
      return reply.status(201).send(ok(agentCreatedView(row)));
    },
  );

  app.put(
    '/api/agents/:id',
    {
      preValidation: walletGuard,
      schema: {
        tags,
        summary: 'Update an agent (creator only): only the fields given change',
        description:
          'persona and strategy are merged key by key. status may be ACTIVE (a deployed agent only) or PAUSED. A TERMINATED agent cannot be updated (400 BAD_REQUEST). Answers the agent detail view after the update.',
        security,
        params: AgentIdParams,
        body: UpdateAgentBody,
        response: { 200: AgentDetailResponse, ...internalErrors },
      },
    },
    async (request) => ok(agentDetailView(await updateAgent(deps, request.params.id, request.signer!, request.body))),
  );

  app.delete(
    '/api/agents/:id',
    {
      preValidation: walletGuard,
      schema: {
        tags,
        summary: 'Terminate an agent (creator only): soft, the record is kept; repeating it answers the same',
        description:
          "For a company with custody the agent's key also leaves the trading and staking roles of the company's Roles module. 409 CONFLICT when the platform may not change that module (its key is not a member of the module's manage role): the agent is TERMINATED all the same, and the message says its key is still a member and how the card's holder takes it out or gives the role back (the reconcile-custody job then finishes it).",
        security,
        params: AgentIdParams,
        response: { 200: AgentTerminatedResponse, ...internalErrors },
      },
    },
    async (request) => ok(await terminateAgent(deps, request.params.id, request.signer!)),
  );
}
