import { readFileSync } from 'node:fs';
import {
  type Address,
  getAddress,
  type Hex,
  hexToBigInt,
  numberToHex,
  parseSignature,
  serializeSignature,
  zeroAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from '../../../src/chain/artifacts.ts';
import { createChainClients, devAccount } from '../../../src/chain/client.ts';
import {
  WALLET_SIGNATURE_PREAMBLE,
  WALLET_SIGNATURE_REPLAY_TTL_S,
  WALLET_SIGNATURE_WINDOW_S,
} from '../../../src/constants.ts';
import type { Database } from '../../../src/db/client.ts';
import {
  parseWalletAuthorization,
  purgeExpiredSignatures,
  sha256Hex,
  type VerifyWalletOptions,
  verifyWalletSignature,
  walletAuthorizationHeader,
  walletSignatureMessage,
} from '../../../src/domain/auth/wallet-signature.ts';
import { AppError, isChainUnavailable } from '../../../src/errors.ts';
import { startTestChain, type TestChain } from '../../helpers/chain.ts';
import { testDatabases } from '../../helpers/db.ts';

interface Vector {
  method: string;
  path: string;
  body: string;
  address: Address;
  timestamp: number;
  bodySha256: string;
  message: string;
  signature: Hex;
  authorization: string;
}
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/wallet-signature.json', import.meta.url), 'utf8')) as {
  cases: Vector[];
};
const vectors = fixture.cases;

const alice = devAccount(1); // the vectors' signer
const mallory = devAccount(2);
const owner = devAccount(3); // owner of the contract wallet
/** A fixed clock for freshly signed requests. */
const T = 1_767_300_000;
/** secp256k1 group order: (r, n - s) with the other parity is the malleated twin of (r, s). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

let chain: TestChain;
let contractWallet: Address;

beforeAll(async () => {
  chain = await startTestChain();
  const artifact = loadArtifact('MockContractWallet');
  // Account 9, not 0: account 0 is the platform, whose nonces the chain clients manage.
  const hash = await chain.wallet(9).deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [owner.address],
  });
  const receipt = await chain.chain.publicClient.waitForTransactionReceipt({ hash });
  contractWallet = getAddress(receipt.contractAddress!);
});
afterAll(async () => {
  await chain?.stop();
});

let seq = 0;
/** A path no other test signs, so replay entries of one test never meet another's. */
const uniquePath = (base = '/api/probe') => `${base}/${++seq}`;

async function signRequest(
  account: { address: Address; signMessage(a: { message: string }): Promise<Hex> },
  r: { method: string; url: string; body?: string; ts?: number; claim?: Address },
) {
  const ts = r.ts ?? T;
  const signature = await account.signMessage({ message: walletSignatureMessage(r.method, r.url, ts, r.body ?? '') });
  return { header: walletAuthorizationHeader(r.claim ?? account.address, ts, signature), signature, ts };
}

/** The UNAUTHORIZED message a verification rejects with. */
async function rejection(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => {
      throw new Error('expected the verification to fail, but it succeeded');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('UNAUTHORIZED');
  return (err as AppError).message;
}

/** Every string one byte away: each byte changed (to its neighbour, and to the other case), removed, or added. */
function oneByteChanges(s: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    out.add(s.slice(0, i) + String.fromCharCode(c.charCodeAt(0) ^ 1) + s.slice(i + 1));
    const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    if (flipped !== c) out.add(s.slice(0, i) + flipped + s.slice(i + 1));
    out.add(s.slice(0, i) + s.slice(i + 1));
  }
  out.add(`${s} `);
  out.add(`x${s}`);
  out.delete(s);
  return [...out];
}

function highSTwin(signature: Hex): Hex {
  const { r, s, yParity } = parseSignature(signature);
  return serializeSignature({
    r,
    s: numberToHex(SECP256K1_N - hexToBigInt(s), { size: 32 }),
    yParity: yParity === 0 ? 1 : 0,
  });
}

describe('parseWalletAuthorization', () => {
  const sig = `0x${'ab'.repeat(65)}`;

  it('reads the address (checksummed, from any case), the time and the signature', () => {
    const address = alice.address.toLowerCase();
    expect(parseWalletAuthorization(`Wallet ${address}:1767225600:${sig}`)).toEqual({
      address: alice.address,
      timestamp: 1767225600,
      signature: sig,
    });
    expect(parseWalletAuthorization(`wallet ${alice.address.toUpperCase().replace('0X', '0x')}:0:${sig}`)).toEqual({
      address: alice.address,
      timestamp: 0,
      signature: sig,
    });
  });

  it('accepts longer signatures, which contract wallets may use', () => {
    expect(parseWalletAuthorization(`Wallet ${alice.address}:1:0x${'00'.repeat(200)}`).signature).toHaveLength(402);
  });

  it.each([
    ['missing header', undefined, /^Missing Authorization header/],
    ['empty header', '', /^Missing Authorization header/],
    ['wrong scheme', `Bearer ${alice.address}:1767225600:${sig}`, /not the Wallet scheme/],
    ['scheme without credentials', 'Wallet', /no credentials/],
    ['two parts', `Wallet ${alice.address}:1767225600`, /three parts/],
    ['four parts', `Wallet ${alice.address}:1767225600:${sig}:x`, /three parts/],
    ['address too short', `Wallet 0x${'a'.repeat(39)}:1767225600:${sig}`, /the address must be/],
    ['address not hex', `Wallet 0x${'g'.repeat(40)}:1767225600:${sig}`, /the address must be/],
    ['address without 0x', `Wallet ${'a'.repeat(40)}:1767225600:${sig}`, /the address must be/],
    ['non-numeric time', `Wallet ${alice.address}:soon:${sig}`, /the time must be whole unix seconds/],
    ['fractional time', `Wallet ${alice.address}:1767225600.5:${sig}`, /the time must be whole unix seconds/],
    ['negative time', `Wallet ${alice.address}:-1:${sig}`, /the time must be whole unix seconds/],
    ['time with a leading zero', `Wallet ${alice.address}:01767225600:${sig}`, /the time must be whole unix seconds/],
    ['time in milliseconds', `Wallet ${alice.address}:1767225600000:${sig}`, /the time must be whole unix seconds/],
    ['short signature', `Wallet ${alice.address}:1767225600:0x${'ab'.repeat(64)}`, /at least 65 bytes/],
    ['odd-length signature', `Wallet ${alice.address}:1767225600:${sig}a`, /at least 65 bytes/],
    ['signature without 0x', `Wallet ${alice.address}:1767225600:${'ab'.repeat(65)}`, /at least 65 bytes/],
  ])('refuses a %s', (_name, header, message) => {
    let err: unknown;
    try {
      parseWalletAuthorization(header);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('UNAUTHORIZED');
    expect((err as AppError).message).toMatch(message);
  });
});

describe('walletSignatureMessage', () => {
  it.each(vectors.map((v) => [`${v.method} ${v.path}`, v] as const))('builds the vector message of %s', (_n, v) => {
    expect(sha256Hex(v.body)).toBe(v.bodySha256);
    expect(walletSignatureMessage(v.method, v.path, v.timestamp, v.body)).toBe(v.message);
    expect(v.message.split('\n')[0]).toBe(WALLET_SIGNATURE_PREAMBLE);
    expect(walletAuthorizationHeader(v.address, v.timestamp, v.signature)).toBe(v.authorization);
  });

  it('hashes the empty string when there is no body', () => {
    expect(walletSignatureMessage('GET', '/x', 1, '').split('\n')[3]).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('keeps replay entries longer than any signature stays usable (2 x window)', () => {
    expect(WALLET_SIGNATURE_REPLAY_TTL_S).toBeGreaterThanOrEqual(2 * WALLET_SIGNATURE_WINDOW_S);
  });
});

describe.each(testDatabases)('verifyWalletSignature on $name', (testDatabase) => {
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase.open();
  });
  afterAll(async () => {
    await database?.close();
  });

  const verify = (o: Omit<VerifyWalletOptions, 'db' | 'publicClient' | 'body'> & Partial<VerifyWalletOptions>) =>
    verifyWalletSignature({ db: database.db, publicClient: chain.chain.publicClient, body: '', ...o });

  describe('the vectors', () => {
    it.each(vectors.map((v) => [`${v.method} ${v.path}`, v] as const))('accepts %s at its timestamp', async (_n, v) => {
      const signer = await verify({
        header: v.authorization,
        method: v.method,
        url: v.path,
        body: v.body,
        nowMs: v.timestamp * 1000,
      });
      expect(signer).toBe(getAddress(v.address));
      expect(signer).toBe(alice.address);
    });

    it.each(
      vectors.map((v) => [`${v.method} ${v.path}`, v] as const),
    )('refuses %s after any one-byte change of method, path, query or body', async (_n, v) => {
      const base = {
        header: v.authorization,
        method: v.method,
        url: v.path,
        body: v.body,
        nowMs: v.timestamp * 1000,
      };
      const variants = [
        ...oneByteChanges(v.method).map((method) => ({ ...base, method })),
        ...oneByteChanges(v.path).map((url) => ({ ...base, url })),
        ...oneByteChanges(v.body).map((body) => ({ ...base, body })),
      ];
      expect(variants.length).toBeGreaterThanOrEqual(2 * (v.method.length + v.path.length + v.body.length) + 2);
      for (const variant of variants) {
        const message = await rejection(verify(variant));
        expect(message, JSON.stringify(variant)).toMatch(/^Invalid signature/);
      }
    });

    it('refuses a vector a second after its window closes', async () => {
      const v = vectors[0]!;
      const message = await rejection(
        verify({
          header: v.authorization,
          method: v.method,
          url: v.path,
          body: v.body,
          nowMs: (v.timestamp + WALLET_SIGNATURE_WINDOW_S + 1) * 1000,
        }),
      );
      expect(message).toMatch(/^Signature expired/);
    });
  });

  describe('time window', () => {
    it(`accepts a signature exactly ${WALLET_SIGNATURE_WINDOW_S} s old and refuses one ${WALLET_SIGNATURE_WINDOW_S + 1} s old`, async () => {
      const url = uniquePath();
      const { header } = await signRequest(alice, { method: 'POST', url, body: '{}' });
      const base = { header, method: 'POST', url, body: '{}' };
      const expired = await rejection(verify({ ...base, nowMs: (T + WALLET_SIGNATURE_WINDOW_S + 1) * 1000 }));
      expect(expired).toMatch(/^Signature expired: it was made 301 s ago/);
      // One millisecond past the window is already too late.
      expect(await rejection(verify({ ...base, nowMs: (T + WALLET_SIGNATURE_WINDOW_S) * 1000 + 1 }))).toMatch(
        /^Signature expired/,
      );
      expect(await verify({ ...base, nowMs: (T + WALLET_SIGNATURE_WINDOW_S) * 1000 })).toBe(alice.address);
    });

    it(`accepts a signature ${WALLET_SIGNATURE_WINDOW_S} s ahead and refuses one ${WALLET_SIGNATURE_WINDOW_S + 1} s ahead`, async () => {
      const url = uniquePath();
      const { header } = await signRequest(alice, { method: 'POST', url });
      const base = { header, method: 'POST', url };
      const future = await rejection(verify({ ...base, nowMs: (T - WALLET_SIGNATURE_WINDOW_S - 1) * 1000 }));
      expect(future).toMatch(/^Signature from the future: its time is 301 s ahead/);
      expect(await verify({ ...base, nowMs: (T - WALLET_SIGNATURE_WINDOW_S) * 1000 })).toBe(alice.address);
    });
  });

  describe('signer', () => {
    it('refuses a signature by another key claiming this address', async () => {
      const url = uniquePath();
      const { header } = await signRequest(mallory, { method: 'POST', url, body: '{"a":1}', claim: alice.address });
      const message = await rejection(verify({ header, method: 'POST', url, body: '{"a":1}', nowMs: T * 1000 }));
      expect(message).toMatch(/^Invalid signature/);
    });

    it('accepts the claimed address in any case and answers it checksummed', async () => {
      const url = uniquePath();
      const ts = T;
      const signature = await alice.signMessage({ message: walletSignatureMessage('DELETE', url, ts, '') });
      const header = `Wallet ${alice.address.toLowerCase()}:${ts}:${signature}`;
      expect(await verify({ header, method: 'DELETE', url, nowMs: T * 1000 })).toBe(alice.address);
    });

    it('verifies an EOA without asking the chain', async () => {
      const url = uniquePath();
      const { header } = await signRequest(alice, { method: 'PUT', url, body: '[]' });
      const noChain = {
        getCode: () => Promise.reject(new Error('the chain was asked')),
        verifyMessage: () => Promise.reject(new Error('the chain was asked')),
      } as unknown as VerifyWalletOptions['publicClient'];
      expect(await verify({ header, method: 'PUT', url, body: '[]', nowMs: T * 1000, publicClient: noChain })).toBe(
        alice.address,
      );
    });

    it('answers chain unavailable, not "invalid", when it must ask an unreachable chain', async () => {
      const url = uniquePath();
      const { header } = await signRequest(mallory, { method: 'POST', url, claim: alice.address });
      const unreachable = createChainClients({
        chainId: 31337,
        rpcUrl: 'http://127.0.0.1:9',
        local: true,
        timeoutMs: 500,
      });
      const err = await verify({
        header,
        method: 'POST',
        url,
        nowMs: T * 1000,
        publicClient: unreachable.publicClient,
      }).catch((e: unknown) => e);
      expect(isChainUnavailable(err)).toBe(true);
    });
  });

  describe('tampering', () => {
    it('refuses a tampered body', async () => {
      const url = uniquePath();
      const { header } = await signRequest(alice, { method: 'POST', url, body: '{"amount":1}' });
      const message = await rejection(verify({ header, method: 'POST', url, body: '{"amount":9}', nowMs: T * 1000 }));
      expect(message).toMatch(/^Invalid signature/);
    });

    it('refuses a body sent where none was signed, and no body where one was', async () => {
      const url = uniquePath();
      const none = await signRequest(alice, { method: 'POST', url });
      expect(
        await rejection(verify({ header: none.header, method: 'POST', url, body: '{}', nowMs: T * 1000 })),
      ).toMatch(/^Invalid signature/);
      const some = await signRequest(alice, { method: 'POST', url, body: '{}' });
      expect(await rejection(verify({ header: some.header, method: 'POST', url, body: '', nowMs: T * 1000 }))).toMatch(
        /^Invalid signature/,
      );
    });

    it('refuses a tampered path, query or method', async () => {
      const url = uniquePath('/api/companies');
      const { header } = await signRequest(alice, { method: 'PATCH', url: `${url}?dryRun=true` });
      for (const [method, target] of [
        ['PATCH', `${url}x?dryRun=true`],
        ['PATCH', `${url}?dryRun=false`],
        ['PATCH', url],
        ['PATCH', `${url}?dryRun=true&x=1`],
        ['PUT', `${url}?dryRun=true`],
        ['patch', `${url}?dryRun=true`],
      ] as const) {
        expect(await rejection(verify({ header, method, url: target, nowMs: T * 1000 }))).toMatch(/^Invalid signature/);
      }
    });

    it('refuses a signature moved to another time', async () => {
      const url = uniquePath();
      const { signature } = await signRequest(alice, { method: 'POST', url });
      const header = walletAuthorizationHeader(alice.address, T + 1, signature);
      expect(await rejection(verify({ header, method: 'POST', url, nowMs: T * 1000 }))).toMatch(/^Invalid signature/);
    });
  });

  describe('replay', () => {
    it('refuses the second use of a signature', async () => {
      const url = uniquePath();
      const { header } = await signRequest(alice, { method: 'POST', url, body: '{}' });
      const request = { header, method: 'POST', url, body: '{}', nowMs: T * 1000 };
      expect(await verify(request)).toBe(alice.address);
      expect(await rejection(verify({ ...request, nowMs: T * 1000 + 5000 }))).toBe(
        'Signature already used: sign each request anew',
      );
    });

    it('refuses the high-s twin of a used signature as a replay', async () => {
      const url = uniquePath();
      const { header, signature } = await signRequest(alice, { method: 'POST', url });
      const twin = highSTwin(signature);
      expect(twin).not.toBe(signature);
      expect(await verify({ header, method: 'POST', url, nowMs: T * 1000 })).toBe(alice.address);
      const twinHeader = walletAuthorizationHeader(alice.address, T, twin);
      expect(await rejection(verify({ header: twinHeader, method: 'POST', url, nowMs: T * 1000 }))).toMatch(
        /^Signature already used/,
      );
    });

    it('lets exactly one of many concurrent uses through', async () => {
      const url = uniquePath();
      const { header } = await signRequest(alice, { method: 'POST', url });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => verify({ header, method: 'POST', url, nowMs: T * 1000 })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason.message).toMatch(/^Signature already used/);
      }
    });

    it('keeps the replay entry until the signature can no longer be used, even across a purge', async () => {
      // Signed as far ahead as allowed: usable until T + 2 x window.
      const url = uniquePath();
      const ts = T + WALLET_SIGNATURE_WINDOW_S;
      const { header } = await signRequest(alice, { method: 'POST', url, ts });
      expect(await verify({ header, method: 'POST', url, nowMs: T * 1000 })).toBe(alice.address);
      const lastUsable = (ts + WALLET_SIGNATURE_WINDOW_S) * 1000;
      await purgeExpiredSignatures(database.db, new Date(lastUsable));
      expect(await rejection(verify({ header, method: 'POST', url, nowMs: lastUsable }))).toMatch(
        /^Signature already used/,
      );
      // A moment later the entry may go: the signature has expired by then.
      expect(await purgeExpiredSignatures(database.db, new Date(lastUsable + 1))).toBeGreaterThanOrEqual(1);
      expect(await rejection(verify({ header, method: 'POST', url, nowMs: lastUsable + 1 }))).toMatch(
        /^Signature expired/,
      );
    });

    it('keeps apart the same message signed for different addresses', async () => {
      // The same request by two signers: each is its own first use.
      const url = uniquePath();
      const a = await signRequest(alice, { method: 'POST', url });
      const m = await signRequest(mallory, { method: 'POST', url });
      expect(await verify({ header: a.header, method: 'POST', url, nowMs: T * 1000 })).toBe(alice.address);
      expect(await verify({ header: m.header, method: 'POST', url, nowMs: T * 1000 })).toBe(mallory.address);
    });
  });

  it('names every rejection reason with its own message', async () => {
    const url = uniquePath();
    const body = '{"x":1}';
    const good = await signRequest(alice, { method: 'POST', url, body });
    const base = { method: 'POST', url, body, nowMs: T * 1000 };
    const sig = good.signature;
    const messages = {
      missing: await rejection(verify({ ...base, header: undefined })),
      wrongScheme: await rejection(verify({ ...base, header: good.header.replace('Wallet', 'Basic') })),
      badAddress: await rejection(verify({ ...base, header: `Wallet 0x1234:${T}:${sig}` })),
      nonNumericTime: await rejection(verify({ ...base, header: `Wallet ${alice.address}:T${T}:${sig}` })),
      shortSignature: await rejection(verify({ ...base, header: `Wallet ${alice.address}:${T}:${sig.slice(0, 130)}` })),
      expired: await rejection(verify({ ...base, header: good.header, nowMs: (T + 301) * 1000 })),
      future: await rejection(verify({ ...base, header: good.header, nowMs: (T - 301) * 1000 })),
      invalid: await rejection(verify({ ...base, header: good.header, body: '{"x":2}' })),
      replayed: await (async () => {
        await verify({ ...base, header: good.header });
        return rejection(verify({ ...base, header: good.header }));
      })(),
    };
    expect(new Set(Object.values(messages)).size).toBe(Object.keys(messages).length);
    expect(messages.missing).toMatch(/^Missing Authorization header/);
    for (const m of [messages.wrongScheme, messages.badAddress, messages.nonNumericTime, messages.shortSignature]) {
      expect(m).toMatch(/^Malformed Authorization header/);
    }
    expect(messages.expired).toMatch(/^Signature expired/);
    expect(messages.future).toMatch(/^Signature from the future/);
    expect(messages.invalid).toMatch(/^Invalid signature/);
    expect(messages.replayed).toMatch(/^Signature already used/);
  });

  describe('ERC-1271 contract wallet', () => {
    it('accepts a request signed by the owner for the contract address', async () => {
      const url = uniquePath();
      const { header } = await signRequest(owner, { method: 'POST', url, body: '{}', claim: contractWallet });
      const signer = await verify({ header, method: 'POST', url, body: '{}', nowMs: T * 1000 });
      expect(signer).toBe(contractWallet);
      expect(signer).toBe(getAddress(contractWallet));
    });

    it('refuses a request signed by another key for the contract address', async () => {
      const url = uniquePath();
      const { header } = await signRequest(mallory, { method: 'POST', url, body: '{}', claim: contractWallet });
      expect(await rejection(verify({ header, method: 'POST', url, body: '{}', nowMs: T * 1000 }))).toMatch(
        /^Invalid signature/,
      );
    });

    it("refuses the owner's signature over another request, for the contract as for the owner itself", async () => {
      const url = uniquePath();
      const other = await signRequest(owner, { method: 'POST', url: `${url}/x`, claim: contractWallet });
      expect(await rejection(verify({ header: other.header, method: 'POST', url, nowMs: T * 1000 }))).toMatch(
        /^Invalid signature/,
      );
      // The owner's own EOA signature stays valid for the owner.
      const own = await signRequest(owner, { method: 'POST', url });
      expect(await verify({ header: own.header, method: 'POST', url, nowMs: T * 1000 })).toBe(owner.address);
    });

    it('refuses garbage and over-long signatures for the contract address without failing', async () => {
      const url = uniquePath();
      for (const signature of [`0x${'00'.repeat(65)}`, `0x${'ff'.repeat(65)}`, `0x${'11'.repeat(97)}`] as Hex[]) {
        const header = walletAuthorizationHeader(contractWallet, T, signature);
        expect(await rejection(verify({ header, method: 'POST', url, nowMs: T * 1000 }))).toMatch(/^Invalid signature/);
      }
    });

    it('refuses a replay of a contract-wallet signature', async () => {
      const url = uniquePath();
      const { header } = await signRequest(owner, { method: 'POST', url, claim: contractWallet });
      expect(await verify({ header, method: 'POST', url, nowMs: T * 1000 })).toBe(contractWallet);
      expect(await rejection(verify({ header, method: 'POST', url, nowMs: T * 1000 }))).toMatch(
        /^Signature already used/,
      );
    });

    it('refuses the zero address and addresses without code for garbage signatures', async () => {
      const url = uniquePath();
      for (const address of [zeroAddress, mallory.address]) {
        const header = walletAuthorizationHeader(address, T, `0x${'00'.repeat(65)}`);
        expect(await rejection(verify({ header, method: 'POST', url, nowMs: T * 1000 }))).toMatch(/^Invalid signature/);
      }
    });
  });
});
