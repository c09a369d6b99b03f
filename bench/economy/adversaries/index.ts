// Every attack the simulation runs. A new attack is a new file of this folder exporting a Strategy, listed here.
import type { Strategy } from '../actor.ts';
import { freshWalletVolume } from './fresh-wallet-volume.ts';
import { lateJoiner } from './late-joiner.ts';

export const STRATEGIES: Strategy<any>[] = [lateJoiner, freshWalletVolume];
