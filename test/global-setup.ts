// Compiles the contracts once before any test file runs (a no-op when the sources did not change).
import { buildContracts } from '../scripts/build-contracts.ts';

export default function setup() {
  buildContracts();
}
