// Company routes: create (card-gated), read, directive, engine, treasury and deploy-suite.

import { chainDateForReads } from '../../chain/time.ts';
import { createCompany } from '../../domain/companies/create.ts';
import { deploySuite } from '../../domain/companies/deploy-suite.ts';
import { companyOfCard, getCompanyView } from '../../domain/companies/queries.ts';
import { updateDirective, updateEngine } from '../../domain/companies/settings.ts';
import { setTreasury } from '../../domain/companies/treasury.ts';
import { dayOf } from '../../domain/costs/gas-budget.ts';
import { optionalWallet, requireWallet } from '../auth/index.ts';
import { ok } from '../envelope.ts';
import { recoveryRecorder } from '../plugins/idempotency.ts';
import { internalErrors } from '../schemas/common.ts';
import {
  CardCompanyResponse,
  CardParams,
  CompanyParams,
  CompanyResponse,
  CreateCompanyBody,
  DeploySuiteResponse,
  DirectiveBody,
  DirectiveResponse,
  EngineBody,
  EngineResponse,
  TreasuryBody,
} from '../schemas/companies.ts';
import { registerSignedWrite, type SignedWrite, signedWrite } from '../signed-writes.ts';
import type { ApiDeps, App, RouteOptions } from '../types.ts';

const wallet = [{ wallet: [] }];

export default async function companyRoutes(app: App, { deps, reads }: RouteOptions) {
  const signed = requireWallet(deps);
  // Kept until a table they were read from changes (read-cache.ts); the view shows the gas of the day.
  const views = reads.route('company', { tables: ['companies', 'agents', 'company_gas_days'] });
  const cards = reads.route('card', { tables: ['companies'] });

  app.get(
    '/api/cards/:tokenId',
    {
      schema: {
        tags: ['companies'],
        summary: 'The company an access card is bound to (null while none is)',
        description:
          "A card binds to one company for ever, at the company's creation. The card's image, tier and boost are its NFT metadata (/api/nft/metadata/{tokenId}); its holder is the access card's ownerOf.",
        params: CardParams,
        response: { 200: CardCompanyResponse, ...internalErrors },
      },
    },
    async (request, reply) =>
      cards.send(reply, String(request.params.tokenId), async () =>
        ok(await companyOfCard(deps.database.db, request.params.tokenId)),
      ),
  );

  for (const route of companyWrites(deps, app.log)) registerSignedWrite(app, deps, route, 'internal');

  app.get(
    '/api/companies/:id',
    {
      schema: {
        tags: ['companies'],
        summary: 'A company by id or slug, with its agents',
        params: CompanyParams,
        response: { 200: CompanyResponse, ...internalErrors },
      },
    },
    async (request, reply) => {
      // The gas shown is the chain's day's (chainDateForReads: never waits on a node that does not answer).
      const now = (await chainDateForReads(deps.chain.publicClient, deps.now)).getTime();
      return views.send(reply, `${request.params.id}|${dayOf(now)}`, async () =>
        ok(await getCompanyView(deps, request.params.id, now)),
      );
    },
  );

  const signedPatch = deps.config.companyPatchAuth === 'signature';
  app.patch(
    '/api/companies/:id',
    {
      preValidation: signedPatch ? signed : optionalWallet(deps),
      schema: {
        tags: ['companies'],
        summary: signedPatch
          ? "Set the CEO directive, autonomy and engine models (creator's signature)"
          : "Set the CEO directive, autonomy and engine models (unsigned, rate-limited by IP: COMPANY_PATCH_AUTH=ip; the creator's signature when the company's agents can trade or stake)",
        description:
          "For a company with custody a toolkitConfig's limits are saved, then written to the company's Roles module (its daily allowance and largest buy, as saved last). 409 CONFLICT when the platform may not change that module (its key is not a member of the module's manage role): the settings are saved all the same, and the message says how the card's holder sets the module's limits or gives the role back (the reconcile-custody job then moves them).",
        ...(signedPatch ? { security: wallet } : { security: [{}, ...wallet] }),
        params: CompanyParams,
        body: DirectiveBody,
        response: { 200: DirectiveResponse, ...internalErrors },
      },
    },
    async (request) => ok(await updateDirective(deps, request.params.id, request.signer, request.body, signedPatch)),
  );
}

/**
 * The company writes signed by the card's holder, registered under /api here and under /api/v1 by v1.ts
 * (src/http/signed-writes.ts): creation, the engine settings, the treasury's proof, deploy-suite.
 */
export function companyWrites(api: ApiDeps, log: App['log']): SignedWrite[] {
  const deps = { ...api, log };
  return [
    signedWrite({
      method: 'POST',
      path: '/companies',
      status: 201,
      tags: ['companies'],
      summary: "Create a company bound for ever to one of the signer's unused access cards",
      body: CreateCompanyBody,
      response: CompanyResponse,
      // A retry of a keyed creation that may have committed answers the company it created (src/http/plugins/idempotency.ts).
      recover: async ({ id }) => {
        const now = (await chainDateForReads(deps.chain.publicClient, deps.now)).getTime();
        return getCompanyView(deps, id, now);
      },
      run: (request) => createCompany(deps, request.signer!, request.body, recoveryRecorder(request, 'company')),
    }),
    signedWrite({
      method: 'PATCH',
      path: '/companies/:id/engine',
      status: 200,
      tags: ['companies'],
      summary: 'Set the engine preset, autonomy level and master directive; resizes the compute machine',
      params: CompanyParams,
      body: EngineBody,
      response: EngineResponse,
      run: (request) => updateEngine(deps, request.params.id, request.signer, request.body),
    }),
    signedWrite({
      method: 'PUT',
      path: '/companies/:id/treasury',
      status: 200,
      tags: ['companies'],
      summary: "Set the treasury address that receives epoch rewards, with the treasury's acceptance",
      description:
        "The signer must hold the company's card. A treasury other than the signer's own wallet must accept the company: its EIP-712 signature of TreasuryAcceptance { companyId, treasury, chainId, deadline } (docs/api/companies.md). 400 BAD_REQUEST for the zero address, a platform contract, a company token or an agent wallet; 403 FORBIDDEN without a valid acceptance or for another company's treasury. The treasury score counts the treasury's time-weighted USDC balance from the moment it is set.",
      params: CompanyParams,
      body: TreasuryBody,
      response: CompanyResponse,
      run: (request) => setTreasury(deps, request.params.id, request.signer, request.body),
    }),
    signedWrite({
      method: 'POST',
      path: '/companies/:id/deploy-suite',
      status: 200,
      tags: ['companies'],
      summary: 'Hire the seven C-suite agents (missing roles only) and run their identity pipeline',
      params: CompanyParams,
      response: DeploySuiteResponse,
      run: (request) => deploySuite(deps, request.params.id, request.signer),
    }),
  ];
}
