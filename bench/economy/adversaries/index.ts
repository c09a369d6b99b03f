// Every attack the simulation runs. A new attack is a new file of this folder exporting a Strategy, listed here.
// The open attacks come first (herding is priced, not closed, for holds of several days): a run with fewer attackers
// than strategies (the CI run: 2 of 20 companies) runs them in this order from the strategy its seed picks (seed 1:
// the first), so seed 1 always runs the open ones.
import type { Strategy } from '../actor.ts';
import { freshWalletPump } from './fresh-wallet-pump.ts';
import { freshWalletVolume } from './fresh-wallet-volume.ts';
import { herding } from './herding.ts';
import { lateJoiner } from './late-joiner.ts';
import { parkedTreasury } from './parked-treasury.ts';
import { pooledCard } from './pooled-card.ts';
import { rentedCard } from './rented-card.ts';
import { roundSpam } from './round-spam.ts';
import { symbolTricks } from './symbol-tricks.ts';

export const STRATEGIES: Strategy<any>[] = [
  lateJoiner,
  freshWalletVolume,
  herding,
  freshWalletPump,
  parkedTreasury,
  roundSpam,
  pooledCard,
  rentedCard,
  symbolTricks,
];
