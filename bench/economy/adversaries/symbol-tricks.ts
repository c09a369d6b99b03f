// Symbol and directive tricks, both closed (docs/economics.md "Agents: symbol squatting" and "... through the
// directive's clock"; test/attacks/symbol-squatting.test.ts, directive-redating.test.ts), kept closed under the
// simulation. On day 0, once every honest token is launched and every directive set, the attacker buys cards:
// - `copycats` companies each launch a token under an honest token's symbol (to make every agent's trade in it
//   ambiguous): each must be refused with 409; a launch that goes through is a breach, and fails the run;
// - with `squat` 1, one more company launches a symbol an honest directive names before it exists (an honest
//   trading company's directive names a token it waits for, honest/trading-company.ts), buys `seedUsdc` of it and
//   sells it back after the last day, into whatever the honest agents bought: a buy outside the buy rules shows as
//   honest agents losing USDC to it (the report's invariant).
// Cost: the cards, the fees and the gas. Earned: the reward its bare companies are paid (as a late joiner's cards).
import type { Address } from 'viem';
import { loadCompany } from '../../../scripts/demo/companies.ts';
import { buy, sell } from '../../../scripts/demo/market.ts';
import { type Actor, type Strategy, tolerant } from '../actor.ts';
import type { Party, World } from '../world.ts';

type Params = { copycats: number; squat: number; seedUsdc: number };

let made = 0;

/** Upper-case words of a directive that look like a token symbol (2-10 of A-Z and 0-9, a letter first). */
export function namedSymbols(text: string): string[] {
  return [...text.matchAll(/\b[A-Z][A-Z0-9]{1,9}\b/g)].map((m) => m[0]).filter((s) => s !== 'USDC');
}

export const symbolTricks: Strategy<Params> = {
  name: 'symbol-tricks',
  summary: "a copy of an honest token's symbol, and a symbol an honest directive names launched before its owner's",
  grid: { copycats: [1, 2], squat: [0, 1], seedUsdc: [50, 200] },
  // A card a copycat, and one more to squat: each a company of the field.
  cards: (params) => params.copycats + params.squat,
  create(params: Params, party: Party): Actor {
    let squatter: { account: number; token: Address } | undefined;
    return {
      party,
      async startDay(world: World, day: number) {
        if (day !== 0) return;
        const specs = Array.from({ length: params.copycats + params.squat }, () => {
          const tag = String(made++).padStart(3, '0');
          return {
            slug: `sim-symbol-${tag}`,
            name: `Symbol Games ${tag}`,
            category: 'AI_TOKENS' as const,
            description: 'Launches the symbols other companies use or name.',
            treasuryUsdc: 0,
          };
        });
        const made_ = await world.addCompanies(party, specs);
        const launched = new Set(world.tokens().map((t) => t.symbol.toUpperCase()));
        const honestSymbols = world
          .tokens()
          .filter((t) => t.honest)
          .map((t) => t.symbol);
        const launch = async (slug: string, account: number, symbol: string) =>
          world.ctx.api.call('POST', `/api/companies/${world.companyId(slug)}/token`, {
            signer: world.ctx.account(account),
            body: { name: `${symbol} token`, symbol },
          });
        for (const [i, c] of made_.slice(0, params.copycats).entries()) {
          const symbol = honestSymbols[i % Math.max(1, honestSymbols.length)];
          if (!symbol) break;
          const res = await launch(c.plan.slug, c.plan.account, symbol);
          if (res.status === 409) world.log(`symbol-tricks: the copy of ${symbol} was refused (409), as it must be`);
          else party.breaches.push(`a second ${symbol} launched (${res.status}): symbols must be unique`);
        }
        if (params.squat !== 1) return;
        const c = made_[params.copycats];
        if (!c) return;
        // What honest directives name and nobody launched yet.
        const named = world.companies
          .filter((h) => h.party.honest)
          .flatMap((h) => namedSymbols(`${h.plan.masterDirective ?? ''} ${h.plan.ceoPrompt ?? ''}`))
          .filter((s) => !launched.has(s));
        const symbol = named[0];
        if (!symbol) {
          world.log('symbol-tricks: no honest directive names an unlaunched symbol; nothing to squat');
          return;
        }
        const res = await launch(c.plan.slug, c.plan.account, symbol);
        if (res.status !== 201) {
          world.log(`symbol-tricks: the squat of ${symbol} answered ${res.status}`);
          return;
        }
        const company = await loadCompany(world.ctx, c.plan.slug);
        c.plan.token = { name: `${symbol} token`, symbol, graduate: false, targetShare: 0 };
        squatter = { account: c.plan.account, token: company.tokenAddress as Address };
        await world.fund(party, c.plan.account, params.seedUsdc + 1);
        await tolerant(() => buy(world.ctx, squatter!.account, squatter!.token, params.seedUsdc));
        world.log(`symbol-tricks: squatted ${symbol}, named by an honest directive before its launch`);
      },
      async finish(world: World) {
        if (squatter) await tolerant(() => sell(world.ctx, squatter!.account, squatter!.token, 100n));
      },
    };
  },
};
