// The decision hash: keccak256 of the canonical JSON of a round's decision (keys sorted at every level, no
// whitespace, RFC 8785-style for the JSON this engine produces: strings, finite numbers, booleans, null, arrays
// and objects), so anyone holding the decision can recompute the hash the chain holds.
import { type Hex, keccak256, toBytes } from 'viem';
import type { DecisionAction } from '../../db/schema/decisions.ts';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('canonical JSON has no place for a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new Error(`canonical JSON cannot hold a ${typeof value}`);
}

export interface HashedDecision {
  companyId: string;
  cycle: number;
  directive: string;
  actions: DecisionAction[];
}

export const decisionHash = (decision: HashedDecision): Hex => keccak256(toBytes(canonicalJson(decision)));
