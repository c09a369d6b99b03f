// GET /api/names: who addresses are on the platform (an agent, or a company's treasury or Safe), for feeds and trade
// rows.
import { Type } from 'typebox';
import { ADDRESS_NAMES_MAX } from '../../../constants.ts';
import { namesOf } from '../../../domain/agents/names.ts';
import { route } from '../../route.ts';
import { AddressOut, AddressString, Nullable, StringEnum } from '../../schemas/common.ts';
import { walletOf } from './wallet.ts';

/**
 * The addresses to name, each checked by the one address schema. A client sends them comma-separated
 * (`addresses=0xa…,0xb…`) or repeated (`addresses=0xa…&addresses=0xb…`); the route splits either into this list
 * before validation (`splitAddressList` below).
 */
export const AddressNamesQuery = Type.Object({
  addresses: Type.Array(AddressString, {
    minItems: 1,
    maxItems: ADDRESS_NAMES_MAX,
    description: `Addresses, comma-separated or repeated, at most ${ADDRESS_NAMES_MAX}`,
  }),
});

export const AddressNames = Type.Array(
  Type.Object({
    address: AddressOut('Checksummed'),
    kind: StringEnum(['agent', 'company'] as const),
    name: Type.String({ description: '"Spot Sprinters\' CFO", "Acme\'s treasury", or a stand-alone agent\'s name' }),
    agentId: Nullable(Type.String()),
    company: Nullable(Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() })),
  }),
  {
    description: 'The addresses asked that are an agent wallet or a company treasury or Safe; the others are left out',
  },
);

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

export default route({
  url: '/api/names',
  auth: 'none',
  tag: 'agents',
  summary: 'Who addresses are on the platform: an agent ("Spot Sprinters\' CFO") or a company\'s treasury or Safe',
  description: `For feeds and trade rows. \`addresses\` comma-separated or repeated. Addresses that are neither are left out. 400 VALIDATION_ERROR for an invalid address, none, or more than ${ADDRESS_NAMES_MAX}.`,
  query: AddressNamesQuery,
  response: AddressNames,
  // Before validation: the list as one array of addresses, so each goes through the address schema.
  prepare: (request) => splitAddressList(request.query as Record<string, unknown>),
  load: (deps, { query }) => namesOf(deps.database.db, query.addresses.map(walletOf)),
});
