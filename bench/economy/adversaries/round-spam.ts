// Round spam: the attacker's company asks for manual decision rounds (POST /api/companies/{id}/decisions/run) as
// often as the cooldown lets it, `perSlot` at each trading slot, hoping they count as activity. Activity counts
// completed SCHEDULED rounds only, so the spam buys nothing; the platform pays the model and the gas. Cost: the card
// and the interest on the treasury held (the rounds cost their company nothing).
import { type Actor, interest, type Strategy } from '../actor.ts';
import type { Party, World } from '../world.ts';

type Params = { perSlot: number; treasuryUsdc: number };

let made = 0;

export const roundSpam: Strategy<Params> = {
  name: 'round-spam',
  summary: 'manual decision rounds as often as the cooldown allows, for the activity score',
  grid: { perSlot: [1, 3], treasuryUsdc: [0, 10_000] },
  create(params: Params, party: Party, _rng, days: number): Actor {
    let slug: string | undefined;
    return {
      party,
      async setup(world: World) {
        const tag = String(made++).padStart(3, '0');
        const [company] = await world.addCompanies(party, [
          {
            slug: `sim-spam-${tag}`,
            name: `Round Spammer ${tag}`,
            category: 'AI_TOKENS',
            description: 'Runs manual decision rounds all day for the activity score.',
            treasuryUsdc: params.treasuryUsdc,
          },
        ]);
        slug = company!.plan.slug;
        party.financing += interest(params.treasuryUsdc, days);
      },
      async slot(world: World) {
        if (!slug) return;
        const company = world.ctx.companies.get(slug);
        const account = world.companies.find((c) => c.plan.slug === slug)!.plan.account;
        for (let i = 0; i < params.perSlot; i++) {
          // 429 (the cooldown) and 409 (a scheduled round running) are the platform's answer, not a failure.
          await world.ctx.api.call('POST', `/api/companies/${company.id}/decisions/run`, {
            signer: world.ctx.account(account),
          });
        }
      },
    };
  },
};
