// Who an address is, in words: an agent's wallet reads "Spot Sprinters' CFO" (a link to the agent), a company's
// treasury or Safe "Acme's treasury" (a link to the company), anything else its short address (GET /api/names).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, data } from './api';
import { short } from './format';

export interface AddressName {
  address: string;
  kind: 'agent' | 'company';
  name: string;
  agentId: string | null;
  company: { id: string; slug: string; name: string } | null;
}

const MAX = 100;

/** The names of those of `addresses` that are agents or companies, by lower-case address. */
export function useNames(addresses: readonly (string | null | undefined)[]): Map<string, AddressName> {
  const asked = [...new Set(addresses.filter((a): a is string => !!a).map((a) => a.toLowerCase()))]
    .sort()
    .slice(0, MAX);
  const names = useQuery({
    queryKey: ['names', asked.join(',')],
    enabled: asked.length > 0,
    // A name does not change with trades: read again only when new addresses appear.
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
    // Comma-separated in one parameter (`addresses=0xa…,0xb…`): a hundred addresses fit a URL with room to spare.
    queryFn: () =>
      data(
        api.GET('/api/names', {
          params: { query: { addresses: asked } },
          querySerializer: { array: { style: 'form', explode: false } },
        }),
      ),
  });
  return new Map((names.data ?? []).map((n) => [n.address.toLowerCase(), n as AddressName]));
}

/** An address as a person reads it: its name and a link where it is an agent or a company, else `0x12…abcd`. */
export function Who({ address, names }: { address: string; names: Map<string, AddressName> }) {
  const n = names.get(address.toLowerCase());
  if (n?.agentId) {
    return (
      <Link to="/agents/$id" params={{ id: n.agentId }} title={address}>
        {n.name}
      </Link>
    );
  }
  if (n?.company) {
    return (
      <Link to="/companies/$id" params={{ id: n.company.slug }} title={address}>
        {n.name}
      </Link>
    );
  }
  return (
    <code className="addr" title={address}>
      {short(address)}
    </code>
  );
}
