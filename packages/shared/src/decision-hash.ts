// The decision hash: keccak256 of the canonical JSON of a round's decision, so anyone holding the decision can
// recompute the hash the chain holds. The engine hashes a decision with it before anchoring it; the decision page
// recomputes it in the browser from the decision the API shows.
import { type Hex, keccak256, toBytes } from 'viem';
import { canonicalJson } from './canonical-json.ts';

/** An action of the CEO's decision, as hashed (its outcome is not). */
export interface HashedAction {
  role: string;
  tool: string;
  args: Record<string, unknown>;
  rationale: string;
}

/** What is hashed of a round: its company, cycle, the CEO's directive and the decided actions. */
export interface HashedDecision {
  companyId: string;
  cycle: number;
  directive: string;
  actions: readonly HashedAction[];
}

export const decisionHash = (decision: HashedDecision): Hex => keccak256(toBytes(canonicalJson(decision)));
