// The decision hash: keccak256 of the canonical JSON of a round's decision (src/canonical-json.ts), so anyone
// holding the decision can recompute the hash the chain holds.
import { type Hex, keccak256, toBytes } from 'viem';
import { canonicalJson } from '../../canonical-json.ts';
import type { DecisionAction } from '../../db/schema/decisions.ts';

export interface HashedDecision {
  companyId: string;
  cycle: number;
  directive: string;
  actions: DecisionAction[];
}

export const decisionHash = (decision: HashedDecision): Hex => keccak256(toBytes(canonicalJson(decision)));
