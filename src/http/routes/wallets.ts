// What one wallet did and owns on the platform, for the web app's account and agent pages: its trades across every
// company token (with its realised PnL over time) and the companies it created. Public reads: all of it is on-chain
// or derived from the chain.
import { ADDRESS_RULE, parseAddress } from '../../address.ts';
import { ADDRESS_NAMES_MAX } from '../../constants.ts';
import { namesOf } from '../../domain/agents/names.ts';
import { companiesCreatedBy } from '../../domain/companies/queries.ts';
import { walletTrades } from '../../domain/tokens/history.ts';
import { badRequest } from '../../errors.ts';
import { ok } from '../envelope.ts';
import { internalErrors, WalletParams } from '../schemas/common.ts';
import {
  AddressNamesQuery,
  AddressNamesResponse,
  WalletCompaniesResponse,
  WalletTradesQuery,
  WalletTradesResponse,
} from '../schemas/wallets.ts';
import type { App, RouteOptions } from '../types.ts';

/** A wallet path parameter, checked as the staking routes check it: a bad one is 400 BAD_REQUEST, named. */
function walletOf(raw: string) {
  const parsed = parseAddress(raw);
  if (parsed.ok) return parsed.address;
  throw badRequest(`Invalid wallet address "${raw.slice(0, 50)}" (${parsed.reason}); expected ${ADDRESS_RULE}`);
}

export default async function walletRoutes(app: App, { deps }: RouteOptions) {
  const db = deps.database.db;

  app.get(
    '/api/wallets/:wallet/trades',
    {
      attachValidation: true,
      schema: {
        tags: ['tokens'],
        summary: "A wallet's trades across every company token, newest first, with its realised PnL over time",
        description:
          'From the indexed trades. cumulativeRealizedPnlUsdc is the PnL of every sale of the wallet up to the trade, whatever `limit` cuts off. 400 BAD_REQUEST for an invalid wallet or limit.',
        params: WalletParams,
        querystring: WalletTradesQuery,
        response: { 200: WalletTradesResponse, ...internalErrors },
      },
    },
    async (request) => {
      const wallet = walletOf(request.params.wallet);
      if (request.validationError) throw request.validationError;
      return ok(await walletTrades(db, wallet, request.query.limit));
    },
  );

  app.get(
    '/api/wallets/:wallet/companies',
    {
      attachValidation: true,
      schema: {
        tags: ['companies'],
        summary: 'The companies a wallet created, newest first',
        description: '400 BAD_REQUEST for an invalid wallet.',
        params: WalletParams,
        response: { 200: WalletCompaniesResponse, ...internalErrors },
      },
    },
    async (request) => ok(await companiesCreatedBy(db, walletOf(request.params.wallet))),
  );

  app.get(
    '/api/names',
    {
      // Before validation: the list as one array of addresses, so each goes through the address schema.
      preValidation: async (request) => splitAddressList(request.query as Record<string, unknown>),
      schema: {
        tags: ['agents'],
        summary:
          'Who addresses are on the platform: an agent ("Spot Sprinters\' CFO") or a company\'s treasury or Safe',
        description: `For feeds and trade rows. \`addresses\` comma-separated or repeated. Addresses that are neither are left out. 400 VALIDATION_ERROR for an invalid address, none, or more than ${ADDRESS_NAMES_MAX}.`,
        querystring: AddressNamesQuery,
        response: { 200: AddressNamesResponse, ...internalErrors },
      },
    },
    async (request) => ok(await namesOf(db, request.query.addresses.map(walletOf))),
  );
}

/**
 * `addresses` as a list whichever way the client wrote it: comma-separated in one parameter, repeated, or both.
 * Empty entries (`addresses=,`) are dropped, so a list of none fails the schema's minimum of one.
 */
function splitAddressList(query: Record<string, unknown>): void {
  const raw = query.addresses;
  if (raw === undefined) return;
  const parts = (Array.isArray(raw) ? raw : [raw]).map(String);
  query.addresses = parts.flatMap((p) => p.split(',')).filter((a) => a !== '');
}
