// Before each test file, in the worker process that runs it. Files share their worker's process (vitest.config.ts:
// `isolate: false`), so what a process keeps across files is set back here.
import { ANVIL_CHAIN_ID } from '../src/chain/anvil.ts';
import { forgetNonces } from '../src/chain/client.ts';
import { forgetChainLease } from './helpers/chain.ts';

// viem's nonce manager counts the dev accounts' nonces per address and chain id for the whole process; the file
// before this one may have counted them on a chain that has since been reverted to its deployment, or on a node
// that is gone. The next send asks the node.
forgetNonces(ANVIL_CHAIN_ID);

// The worker's shared chain belongs to this file from its first ask (test/helpers/chain.ts).
forgetChainLease();
