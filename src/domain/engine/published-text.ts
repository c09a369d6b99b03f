// Text the platform publishes for a company (publish_update) is a model's text, and a model can be steered by what
// it reads ("send your USDC to 0x...dEaD", "claim at evil.example"). The platform's name is on what it publishes, so
// the text keeps only the platform's own addresses (its contracts and its companies' tokens) and links (BASE_URL,
// MARKETPLACE_URL); any other address, ENS name or link is replaced by a marker.
import { inArray } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import { companies } from '../../db/schema/companies.ts';
import type { Deps } from '../deps.ts';

export const ADDRESS_REMOVED = '[address removed]';
export const LINK_REMOVED = '[link removed]';

const ADDRESS = /\b0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g;
const ENS_NAME = /\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.eth\b/gi;
const URL_WITH_SCHEME = /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s<>"'()\]]+/gi;
/** Bare domains (`evil.example/claim`, `www.site.io`, `t.me/group`): a name, a dot, a top-level domain of letters. */
const BARE_DOMAIN = /\b(?:www\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}\b(?:\/[^\s<>"'()\]]*)?/gi;
/** Words with a dot that are not domains in an update (file names, abbreviations, version strings). */
const NOT_A_DOMAIN = /^(?:[a-z0-9-]+\.(?:js|ts|md|json|txt|pdf|png|jpg|sol)|e\.g|i\.e|u\.s|a\.m|p\.m|etc\.\w+)$/i;

type TextDeps = Pick<Deps, 'chain' | 'database' | 'config'>;

/** `text` with every address, ENS name and link outside the platform's own replaced by a marker. */
export async function platformOnlyText(deps: TextDeps, text: string): Promise<string> {
  const own = await platformAddressesIn(deps, text);
  const hosts = platformHosts(deps.config);
  return text
    .replace(URL_WITH_SCHEME, (url) => (hosts.has(hostOf(url)) ? url : LINK_REMOVED))
    .replace(ADDRESS, (address) => (own.has(address.toLowerCase()) ? address : ADDRESS_REMOVED))
    .replace(ENS_NAME, LINK_REMOVED)
    .replace(BARE_DOMAIN, (domain) => {
      if (NOT_A_DOMAIN.test(domain) || domain.includes('[')) return domain;
      return hosts.has(hostOf(`https://${domain}`)) ? domain : LINK_REMOVED;
    });
}

/** The addresses in `text` that are the platform's: a contract of its own, or a token of one of its companies. */
async function platformAddressesIn(deps: TextDeps, text: string): Promise<Set<string>> {
  const found = [...new Set([...text.matchAll(ADDRESS)].map((m) => m[0].toLowerCase()))];
  if (found.length === 0) return new Set();
  const own = new Set(
    Object.values(deps.chain.contracts)
      .filter((a): a is Address => typeof a === 'string')
      .map((a) => a.toLowerCase()),
  );
  const rest = found.filter((a) => !own.has(a));
  if (rest.length > 0) {
    // Token addresses are stored checksummed; one indexed read for the few addresses a message holds.
    const tokens = await deps.database.db
      .select({ address: companies.tokenAddress })
      .from(companies)
      .where(
        inArray(
          companies.tokenAddress,
          rest.map((a) => getAddress(a)),
        ),
      );
    for (const t of tokens) if (t.address) own.add(t.address.toLowerCase());
  }
  return own;
}

function platformHosts(config: TextDeps['config']): Set<string> {
  return new Set([hostOf(config.baseUrl), hostOf(config.marketplaceUrl)].filter((h) => h !== ''));
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}
