// Which tokens a directive names (docs/api/agents.md "Buy rules"). A directive names a token by its
// address, fixed when the creator signs that text: each symbol it names resolves to the launched token that symbol
// meant then, and no later edit of another field (the engine's masterDirective, the toolkit) re-dates it. A token
// launched afterwards under a named symbol is not the one the directive named.
import { and, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { type Address, isAddressEqual } from 'viem';
import type { Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';

/** A directive's text and the tokens it named when it was set (symbol in upper case -> address). */
export interface NamedDirective {
  text: string;
  tokens: Record<string, string>;
}

/** What the directive checks need of the buying company. */
export interface DirectiveOwner {
  creatorAddress: string;
  ceoPrompt: string | null;
  ceoPromptSigner: string | null;
  ceoPromptTokens: Record<string, string> | null;
  masterDirective: string | null;
  masterDirectiveSigner: string | null;
  masterDirectiveTokens: Record<string, string> | null;
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `text` names `symbol` explicitly: the symbol as launched, as a word of its own ("SPRNT", not "sprint"), or
 * written with a dollar sign in any case ("$sprnt"). Lower-case words do not name a token, so a token called "THE"
 * is not named by every sentence. `anyCase`: any mention that could mean the token, in any case.
 */
export function namesToken(text: string | null, symbol: string, anyCase = false): boolean {
  if (!text) return false;
  const s = literal(symbol);
  if (anyCase) return new RegExp(`(^|[^A-Za-z0-9])\\$?${s}(?![A-Za-z0-9])`, 'i').test(text);
  return (
    new RegExp(`(^|[^A-Za-z0-9$])${s}(?![A-Za-z0-9])`).test(text) ||
    new RegExp(`\\$${s}(?![A-Za-z0-9])`, 'i').test(text)
  );
}

/** The most distinct words of a directive looked up as symbols (a directive is at most a few thousand characters). */
const MAX_WORDS = 1000;

/**
 * The launched tokens of the platform a directive's text could mean now, by symbol (upper case) -> address: every
 * word of the text, in any case, that is a launched token's symbol. One query, by the symbol's unique index.
 */
export async function resolveNamedTokens(db: Tx, text: string | null): Promise<Record<string, string>> {
  if (!text) return {};
  const words = [...new Set((text.match(/[A-Za-z0-9]+/g) ?? []).map((w) => w.toLowerCase()))].slice(0, MAX_WORDS);
  if (words.length === 0) return {};
  const rows = await db
    .select({ symbol: companies.tokenSymbol, address: companies.tokenAddress })
    .from(companies)
    .where(
      and(
        inArray(sql`lower(${companies.tokenSymbol})`, words),
        sql`not ${companies.tokenSymbolDuplicate}`,
        ne(companies.tokenStatus, 'PRE_PUBLIC'),
        isNotNull(companies.tokenAddress),
      ),
    );
  const named: Record<string, string> = {};
  for (const r of rows) {
    if (r.symbol && r.address && namesToken(text, r.symbol, true)) named[r.symbol.toUpperCase()] = r.address;
  }
  return named;
}

/** The directives of the company, each with the tokens it named when set (none when not resolved). */
export function directivesOf(owner: DirectiveOwner, signedOnly: boolean): NamedDirective[] {
  const by = (signer: string | null) =>
    !signedOnly || (signer !== null && isAddressEqual(signer as Address, owner.creatorAddress as Address));
  return [
    ...(owner.ceoPrompt && by(owner.ceoPromptSigner)
      ? [{ text: owner.ceoPrompt, tokens: owner.ceoPromptTokens ?? {} }]
      : []),
    ...(owner.masterDirective && by(owner.masterDirectiveSigner)
      ? [{ text: owner.masterDirective, tokens: owner.masterDirectiveTokens ?? {} }]
      : []),
  ];
}

/** Whether the directive's text resolved `symbol` to the token at `address` when it was set. */
export const resolvedTo = (d: NamedDirective, symbol: string, address: string) => {
  const at = d.tokens[symbol.toUpperCase()];
  return at !== undefined && isAddressEqual(at as Address, address as Address);
};

/**
 * Whether a directive the company's current creator signed names this very token: its symbol explicitly in the text,
 * resolved to this address when the text was signed. Then a buy is the owner's own call (buy rules waived).
 */
export function signedDirectiveNames(owner: DirectiveOwner, token: { symbol: string; address: string }): boolean {
  return directivesOf(owner, true).some(
    (d) => namesToken(d.text, token.symbol) && resolvedTo(d, token.symbol, token.address),
  );
}

/**
 * A directive (signed or not) that mentions the token's symbol but meant another token, or none, when its text was
 * set: the address it meant then (or null), else undefined when no directive was front-run.
 */
export function frontRunDirective(
  owner: DirectiveOwner,
  token: { symbol: string; address: string },
): { meant: string | null } | undefined {
  for (const d of directivesOf(owner, false)) {
    if (!namesToken(d.text, token.symbol, true) || resolvedTo(d, token.symbol, token.address)) continue;
    return { meant: d.tokens[token.symbol.toUpperCase()] ?? null };
  }
  return undefined;
}
