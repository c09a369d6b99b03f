// Who an address is on the platform, in words, for the web app's feeds and trade rows: a company's agent reads as
// "Spot Sprinters' CFO", a company's treasury or Safe as the company's name. Addresses that are neither are left out.
import { inArray, or, sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import type { Tx } from '../../db/client.ts';
import { agents } from '../../db/schema/agents.ts';
import { companies } from '../../db/schema/companies.ts';

export interface AddressName {
  /** Checksummed. */
  address: string;
  kind: 'agent' | 'company';
  /** "Spot Sprinters' CFO", "Spot Sprinters' treasury", or a stand-alone agent's own name. */
  name: string;
  agentId: string | null;
  company: { id: string; slug: string; name: string } | null;
}

/** "Spot Sprinters" -> "Spot Sprinters'", "Acme" -> "Acme's": the possessive as English writes it. */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/** The names of those of `addresses` (checksummed) that are an agent's wallet or a company's treasury or Safe. */
export async function namesOf(db: Tx, addresses: readonly string[]): Promise<AddressName[]> {
  if (addresses.length === 0) return [];
  const lower = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const found = new Map<string, AddressName>();
  const agentRows = await db
    .select({
      id: agents.id,
      name: agents.name,
      role: agents.role,
      address: agents.onChainAddress,
      companyId: companies.id,
      companySlug: companies.slug,
      companyName: companies.name,
    })
    .from(agents)
    .leftJoin(companies, sql`${companies.id} = ${agents.companyId}`)
    .where(inArray(sql`lower(${agents.onChainAddress})`, lower));
  for (const row of agentRows) {
    if (!row.address) continue;
    const company = row.companyId ? { id: row.companyId, slug: row.companySlug!, name: row.companyName! } : null;
    found.set(row.address.toLowerCase(), {
      address: getAddress(row.address),
      kind: 'agent',
      name: company ? `${possessive(company.name)} ${row.role ?? row.name}` : row.name,
      agentId: row.id,
      company,
    });
  }
  const companyRows = await db
    .select({
      id: companies.id,
      slug: companies.slug,
      name: companies.name,
      treasury: companies.treasuryAddress,
      safe: companies.safeAddress,
    })
    .from(companies)
    .where(
      or(
        inArray(sql`lower(${companies.treasuryAddress})`, lower),
        inArray(sql`lower(${companies.safeAddress})`, lower),
      ),
    );
  for (const row of companyRows) {
    const company = { id: row.id, slug: row.slug, name: row.name };
    for (const [address, what] of [
      [row.safe, 'Safe'],
      [row.treasury, 'treasury'],
    ] as const) {
      if (!address || !lower.includes(address.toLowerCase()) || found.has(address.toLowerCase())) continue;
      found.set(address.toLowerCase(), {
        address: getAddress(address),
        kind: 'company',
        name: `${possessive(company.name)} ${what}`,
        agentId: null,
        company,
      });
    }
  }
  return [...found.values()];
}
