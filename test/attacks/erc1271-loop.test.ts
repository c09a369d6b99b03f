// An unauthenticated request with a signature that is not 65 bytes, for an address with code, made the
// server eth_call a contract the attacker chose, with no gas cap (the node ran a looping isValidSignature up to the
// block gas limit, 30 M gas, per request; with 20 clients an honest read went from 10 ms to 700 ms). Now each check
// gets ERC1271_GAS and ERC1271_TIMEOUT_MS, the code lookup is kept WALLET_CODE_CACHE_MS, and a client whose
// contract checks keep failing is refused with 429 RATE_LIMITED before the chain is asked again; valid signatures
// (and everyone else) go on as before.
//
// Only failures counted, and a replay was checked in full before it was refused. A contract wallet that
// burns gas and then says "valid" ran the whole check on every replay of one signature. Now a signature already
// used is refused before any chain call, and every contract-wallet check, valid or not, counts against the client's
// WALLET_ERC1271_CHECKS_MAX.

import { type Address, getAddress, type Hex, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import {
  ERC1271_GAS,
  ERC1271_TIMEOUT_MS,
  WALLET_ERC1271_CHECKS_MAX,
  WALLET_ERC1271_CHECKS_WINDOW_MS,
} from '../../src/constants.ts';
import type { Database } from '../../src/db/client.ts';
import { walletAuthorizationHeader, walletSignatureMessage } from '../../src/domain/auth/wallet-signature.ts';
import { requireWallet } from '../../src/http/auth/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { anvilTestClient, startTestChain, type TestChain } from '../helpers/chain.ts';
import { primaryTestDatabase } from '../helpers/db.ts';

/** isValidSignature that never returns: JUMPDEST PUSH1 0 JUMP, forever. */
const LOOP_CODE = '0x5b600056' as Hex;
const LOOP = getAddress(`0x${'a1'.repeat(20)}`);
/** A wallet whose eth_call the node never answers (as a stuck node would). */
const STUCK = getAddress(`0x${'b2'.repeat(20)}`);
/**
 * isValidSignature that burns gas (a loop of 1,500 rounds) and then answers the magic value for any signature:
 * PUSH2 1500, then JUMPDEST PUSH1 1 SWAP1 SUB DUP1 PUSH1 3 JUMPI (count down to 0), then store 0x1626ba7e left
 * aligned and return 32 bytes.
 */
const YES_CODE = '0x6105dc5b600190038060035763' + '1626ba7e' + '60e01b60005260206000f3';
const YES = getAddress(`0x${'c3'.repeat(20)}`);
const alice = devAccount(4);
const ATTACKER = '203.0.113.7';
const OTHER = '198.51.100.9';

let chain: TestChain;
let database: Database;
let t: TestApp;
let clock = Date.now();
/** Every eth_call and eth_getCode the app made, as it made them. */
const calls: { gas: bigint | undefined; to: Address | undefined }[] = [];
const codeLookups: Address[] = [];

beforeAll(async () => {
  [chain, database] = await Promise.all([startTestChain(), primaryTestDatabase.open()]);
  const node = anvilTestClient(chain.node.rpcUrl);
  await node.setCode({ address: LOOP, bytecode: LOOP_CODE });
  await node.setCode({ address: STUCK, bytecode: LOOP_CODE });
  await node.setCode({ address: YES, bytecode: YES_CODE as Hex });
  const real = chain.chain.publicClient;
  const recording = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'call') {
        return (args: Parameters<PublicClient['call']>[0]) => {
          calls.push({ gas: args.gas, to: args.to ?? undefined });
          if (args.to === STUCK) return new Promise(() => {});
          return target.call(args);
        };
      }
      if (prop === 'getCode') {
        return (args: Parameters<PublicClient['getCode']>[0]) => {
          codeLookups.push(args.address);
          return target.getCode(args);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  t = await startTestApp({
    database,
    chain: { ...chain, chain: { ...chain.chain, publicClient: recording } },
    now: () => clock,
    extraRoutes: (app, container) => {
      app.get('/api/test/signed', { preValidation: requireWallet(container) }, async (req) => ({
        success: true,
        data: { signer: req.signer },
      }));
    },
  });
});
afterAll(async () => {
  await t?.close();
  await database?.close();
  await chain?.stop();
});

let seq = 0;
const timeS = () => Math.floor(clock / 1000);

/** A request claiming the looping contract, with a 66-byte signature: it can only be checked through ERC-1271. */
const attack = (ip: string, wallet: Address = LOOP) =>
  t.app.inject({
    method: 'GET',
    url: `/api/test/signed?n=${++seq}`,
    remoteAddress: ip,
    headers: { authorization: walletAuthorizationHeader(wallet, timeS(), `0x${'11'.repeat(66)}`) },
  });

async function honest(ip: string) {
  const url = `/api/test/signed?n=${++seq}`;
  const signature = await alice.signMessage({ message: walletSignatureMessage('GET', url, timeS(), '') });
  return t.app.inject({
    method: 'GET',
    url,
    remoteAddress: ip,
    headers: { authorization: walletAuthorizationHeader(alice.address, timeS(), signature) },
  });
}

describe('a contract wallet whose isValidSignature loops forever', () => {
  it('is asked with ERC1271_GAS at most, and refused', async () => {
    const res = await attack(ATTACKER);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/^Invalid signature/);
    const toLoop = calls.filter((c) => c.to === LOOP);
    expect(toLoop).toHaveLength(1);
    expect(toLoop[0]!.gas).toBe(ERC1271_GAS);
  });

  it('is refused after ERC1271_TIMEOUT_MS when the node does not answer the call', async () => {
    const started = performance.now();
    const res = await attack('192.0.2.1', STUCK);
    const tookMs = performance.now() - started;
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/^Invalid signature/);
    expect(tookMs).toBeGreaterThanOrEqual(ERC1271_TIMEOUT_MS - 50);
    expect(tookMs).toBeLessThan(ERC1271_TIMEOUT_MS + 1_500);
  });

  it('costs the chain one code lookup per address, not one per request', async () => {
    await attack(ATTACKER);
    await attack(OTHER);
    expect(codeLookups.filter((a) => a === LOOP)).toHaveLength(1);
  });

  it('after WALLET_ERC1271_CHECKS_MAX checks (failed ones here), refuses the client with 429 and Retry-After without asking the chain', async () => {
    // Failures so far from ATTACKER: 2 (the tests above).
    for (let i = 2; i < WALLET_ERC1271_CHECKS_MAX; i++) expect((await attack(ATTACKER)).statusCode).toBe(401);
    const before = calls.length;
    for (let i = 0; i < 5; i++) {
      const res = await attack(ATTACKER);
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('RATE_LIMITED');
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(WALLET_ERC1271_CHECKS_WINDOW_MS / 1000);
    }
    expect(calls.length).toBe(before);
  });

  it('does not limit valid signatures from that client, nor other clients', async () => {
    const ok = await honest(ATTACKER);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.signer).toBe(alice.address);
    // Another client's failed check is still checked (and refused as invalid, not as limited).
    expect((await attack(OTHER)).statusCode).toBe(401);
  });

  it('lets the client be checked again once its window has passed (just inside: still 429)', async () => {
    clock += WALLET_ERC1271_CHECKS_WINDOW_MS - 1_000;
    expect((await attack(ATTACKER)).statusCode).toBe(429);
    clock += 1_000;
    expect((await attack(ATTACKER)).statusCode).toBe(401);
  });
});

describe('a contract wallet that burns gas and then says "valid"', () => {
  /** A request from YES with a 66-byte signature, made once and sent as often as the test likes. */
  const signedByYes = () => {
    const url = `/api/test/signed?n=${++seq}`;
    const authorization = walletAuthorizationHeader(YES, timeS(), `0x${'22'.repeat(66)}`);
    return (ip: string) => t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: { authorization } });
  };
  const toYes = () => calls.filter((c) => c.to === YES).length;

  it('is accepted once; each replay of that signature is refused before any chain call', async () => {
    const send = signedByYes();
    const first = await send('192.0.2.50');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.signer).toBe(YES);
    expect(toYes()).toBe(1);
    for (const ip of ['192.0.2.50', '192.0.2.51', '192.0.2.52']) {
      const again = await send(ip);
      expect(again.statusCode).toBe(401);
      expect(again.json().error.message).toBe('Signature already used: sign each request anew');
    }
    expect(toYes()).toBe(1);
  });

  it('counts every check, valid ones too: past WALLET_ERC1271_CHECKS_MAX the client gets 429 without a chain call', async () => {
    const ip = '192.0.2.60';
    for (let i = 0; i < WALLET_ERC1271_CHECKS_MAX; i++) {
      const res = await signedByYes()(ip);
      expect(res.statusCode, res.body).toBe(200);
    }
    const before = toYes();
    const past = await signedByYes()(ip);
    expect(past.statusCode).toBe(429);
    expect(past.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many contract-wallet signature checks from this client/),
    });
    expect(toYes()).toBe(before);
    // Another client still has its own budget; an EOA from the limited client is not limited.
    expect((await signedByYes()('192.0.2.61')).statusCode).toBe(200);
    expect((await honest(ip)).statusCode).toBe(200);
  });
});
