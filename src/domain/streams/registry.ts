// The platform's chain streams, declared once each (src/chain/streams.ts): the indexer role follows every one of them
// (main.ts), and the score snapshot waits for the ones marked `scored` (scores/readiness.ts). A stream's file is
// src/domain/<area>/<stream name>.stream.ts; adding a stream is that file and its entry here.
import type { AnyChainStream } from '../../chain/streams.ts';
import { accessCardTransfers } from '../companies/access-card-transfers.stream.ts';
import { companyTokenHolders } from '../tokens/company-token-holders.stream.ts';
import { companyTokens } from '../tokens/company-tokens.stream.ts';
import { treasuryTransfers } from '../treasuries/treasury-transfers.stream.ts';

export const CHAIN_STREAMS: readonly AnyChainStream[] = [
  accessCardTransfers,
  companyTokens,
  companyTokenHolders,
  treasuryTransfers,
];
