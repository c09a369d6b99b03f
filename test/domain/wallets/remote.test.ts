// The remote wallet provider against a signer of the tests' own on loopback (test/helpers/remote-signer.ts): which
// key is which wallet (given once, kept when keys are added, never twice under concurrency), transactions sent on
// anvil through the outbox, an outage (a clear error, nothing recorded, the retry sends), a signer that signs with
// another key, signs another transaction or answers a malformed signature (refused before anything is recorded),
// its credentials never shown, and TLS with a private certificate authority.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { type Address, getAddress, parseEther, recoverTypedDataAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentWalletTypedData } from '../../../src/chain/contracts/identity.ts';
import type { Outbox } from '../../../src/chain/outbox.ts';
import type { Database } from '../../../src/db/client.ts';
import { chainTxs } from '../../../src/db/schema/chain.ts';
import { signerWallets } from '../../../src/db/schema/wallets.ts';
import {
  createRemoteWalletProvider,
  RemoteSignerError,
  type RemoteWalletProvider,
} from '../../../src/domain/wallets/remote.ts';
import { startTestChain, type TestChain } from '../../helpers/chain.ts';
import { primaryTestDatabase } from '../../helpers/db.ts';
import { testOutbox } from '../../helpers/outbox.ts';
import { startTestSigner, type TestSigner } from '../../helpers/remote-signer.ts';

const TOKEN = 'Bearer s3cret-signer-token';
const SINK = '0x000000000000000000000000000000000000dEaD' as Address;

let chain: TestChain;
let database: Database;
let signer: TestSigner;
let provider: RemoteWalletProvider;
const providers: RemoteWalletProvider[] = [];
const tmp = mkdtempSync(path.join(tmpdir(), 'aie-signer-'));

const remote = (overrides: Partial<Parameters<typeof createRemoteWalletProvider>[0]['signer']> = {}) => {
  const p = createRemoteWalletProvider({
    db: database.db,
    signer: {
      url: signer.url,
      authHeader: { name: 'Authorization', value: TOKEN },
      timeoutMs: 2_000,
      ...overrides,
    },
  });
  providers.push(p);
  return p;
};

beforeAll(async () => {
  [chain, database, signer] = await Promise.all([
    startTestChain(),
    primaryTestDatabase.open(),
    startTestSigner({ keys: 5, authorization: TOKEN }),
  ]);
  provider = remote();
});

afterAll(async () => {
  for (const p of providers) p.close();
  await signer?.stop();
  await database?.close();
  await chain?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** An outbox signing as wallet `index` through the remote signer. */
async function outboxOf(index: number, p: RemoteWalletProvider = provider): Promise<Outbox> {
  return testOutbox(database, chain, { wallet: chain.chain.walletOf(await p.accountOf(index)) });
}

async function fund(address: Address) {
  const hash = await chain.wallet(0).sendTransaction({ to: address, value: parseEther('1') });
  await chain.chain.publicClient.waitForTransactionReceipt({ hash });
}

const rowOf = async (key: string) => (await database.db.select().from(chainTxs).where(eq(chainTxs.key, key)))[0];

describe('which key is which wallet', () => {
  it('gives each index one of the signer keys, once, and the same one to every provider', async () => {
    const first = await provider.addressOf(0);
    const second = await provider.addressOf(1);
    expect(signer.addresses).toContain(first);
    expect(signer.addresses).toContain(second);
    expect(second).not.toBe(first);
    // Another process (a provider of its own) finds the same assignment.
    expect(await remote().addressOf(0)).toBe(first);
    const rows = await database.db.select().from(signerWallets);
    expect(rows.map((r) => [r.walletIndex, getAddress(r.address)]).sort()).toEqual([
      [0, first],
      [1, second],
    ]);
  });

  it('keeps every wallet on its key when keys are added to the signer, even listed first', async () => {
    const before = await remote().addressOf(1);
    const added = signer.addKey({ first: true });
    expect(await remote().addressOf(1)).toBe(before);
    // The new key goes to the next index that asks.
    const fresh = await remote().addressOf(2);
    expect(fresh).toBe(added);
  });

  it('never gives one key to two wallets when processes ask at once', async () => {
    const racers = [remote(), remote(), remote()];
    const got = await Promise.all([
      racers[0]!.addressOf(3),
      racers[1]!.addressOf(4),
      racers[2]!.addressOf(5),
      racers[0]!.addressOf(4),
    ]);
    expect(got[1]).toBe(got[3]);
    expect(new Set(got.slice(0, 3)).size).toBe(3);
  });

  it('says so when the signer holds no key left for a new wallet, and refuses invalid indexes', async () => {
    // 6 keys (5 and the added one), all given to indexes 0-5.
    const rows = await database.db.select().from(signerWallets);
    expect(rows).toHaveLength(signer.addresses.length);
    const err = await remote()
      .addressOf(6)
      .catch((e) => e);
    expect(err).toBeInstanceOf(RemoteSignerError);
    expect(err.message).toMatch(/holds no key that is not already an agent wallet \(6 keys\): add keys to the signer/);
    expect(err.message).not.toContain('s3cret');
    await expect(provider.addressOf(-1)).rejects.toThrow(/invalid wallet index -1/);
    await expect(provider.addressOf(2 ** 31)).rejects.toThrow(/invalid wallet index/);
    signer.addKey();
    expect(signer.addresses).toContain(await remote().addressOf(6));
  });

  it('keeps a wallet an agent recorded under the seed provider, and names the key to import when absent', async () => {
    const imported = signer.addKey();
    await database.db.execute(
      sql`insert into agents (id, name, creator_address, wallet_index, on_chain_address, persona, skills, strategy)
          values ('ag-imported', 'Imported', ${SINK}, 40, ${imported}, '{}', '[]', '{}'),
                 ('ag-missing', 'Missing', ${SINK}, 41, ${SINK}, '{}', '[]', '{}')`,
    );
    // The key imported for index 40 is no other wallet's, even asked for first.
    await expect(remote().addressOf(42)).rejects.toThrow(/holds no key that is not already an agent wallet/);
    expect(await remote().addressOf(40)).toBe(imported);
    await expect(remote().addressOf(41)).rejects.toThrow(
      `wallet 41 is recorded as ${SINK}, which the remote signer ${signer.url} does not hold: import that key into the signer`,
    );
  });
});

describe('signing', () => {
  it('signs typed data that recovers to the wallet', async () => {
    const wallet = await provider.addressOf(1);
    const typed = agentWalletTypedData(wallet, 31337, 7n, wallet, wallet, 123n);
    const signature = await provider.signTypedData(1, typed);
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(wallet);
    expect(signer.calls.at(-1)).toMatchObject({ method: 'eth_signTypedData' });
    expect(signer.calls.at(-1)!.headers.authorization).toBe(TOKEN);
  });

  it('sends a real transaction on anvil through the outbox, signed by the remote key', async () => {
    const wallet = await provider.addressOf(1);
    await fund(wallet);
    const outbox = await outboxOf(1);
    const receipt = await outbox.send('remote:first', () => ({ to: SINK, data: '0x', value: 1234n }));
    expect(receipt.status).toBe('success');
    expect(getAddress(receipt.from)).toBe(wallet);
    expect(await rowOf('remote:first')).toMatchObject({ status: 'MINED', fromAddress: wallet });
    const tx = await chain.chain.publicClient.getTransaction({ hash: receipt.transactionHash });
    expect(tx.value).toBe(1234n);
  });

  it('fails clearly while the signer is down, records nothing, and sends once it is back', async () => {
    const outbox = await outboxOf(1);
    await signer.down();
    const err = await outbox.send('remote:outage', () => ({ to: SINK, data: '0x', value: 1n })).catch((e) => e);
    expect(err).toBeInstanceOf(RemoteSignerError);
    expect(err.down).toBe(true);
    expect(err.message).toMatch(
      new RegExp(
        `^remote signer ${signer.url}: eth_signTransaction did not answer \\(ECONNREFUSED\\); the signing is retried`,
      ),
    );
    expect(await rowOf('remote:outage')).toBeUndefined();
    await signer.up();
    const receipt = await outbox.send('remote:outage', () => ({ to: SINK, data: '0x', value: 1n }));
    expect(receipt.status).toBe('success');
    expect(await rowOf('remote:outage')).toMatchObject({ status: 'MINED' });
  });

  it('gives up on a signer that does not answer in time', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const slow = remote({ url: `http://127.0.0.1:${port}`, timeoutMs: 200 });
    const started = Date.now();
    await expect(slow.accounts()).rejects.toThrow(/eth_accounts did not answer \(no answer within 200 ms\)/);
    expect(Date.now() - started).toBeLessThan(2_000);
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  for (const [mode, message] of [
    ['other-key', /eth_signTransaction signed as 0x[0-9a-fA-F]{40}, not as wallet 0x[0-9a-fA-F]{40}; refused$/],
    ['other-transaction', /eth_signTransaction signed another transaction \(to, value differ\); refused$/],
    ['malformed', /eth_signTransaction answered a malformed signed transaction; refused$/],
  ] as const) {
    it(`refuses a transaction signed by a signer that answers ${mode}, before anything is recorded`, async () => {
      const outbox = await outboxOf(1);
      signer.mode = mode;
      try {
        await expect(outbox.send(`remote:${mode}`, () => ({ to: SINK, data: '0x', value: 5n }))).rejects.toThrow(
          message,
        );
      } finally {
        signer.mode = 'honest';
      }
      expect(await rowOf(`remote:${mode}`)).toBeUndefined();
    });
  }

  for (const [mode, message] of [
    ['other-key', /the typed data was signed by 0x[0-9a-fA-F]{40}, not by wallet 0x[0-9a-fA-F]{40}; refused$/],
    ['malformed', /eth_signTypedData answered a malformed signature; refused$/],
  ] as const) {
    it(`refuses typed data signed by a signer that answers ${mode}`, async () => {
      const wallet = await provider.addressOf(1);
      signer.mode = mode;
      try {
        await expect(
          provider.signTypedData(1, agentWalletTypedData(wallet, 31337, 1n, wallet, wallet, 1n)),
        ).rejects.toThrow(message);
      } finally {
        signer.mode = 'honest';
      }
    });
  }

  it('signs no messages: the platform never asks agent wallets to', async () => {
    const account = await provider.accountOf(1);
    await expect(account.signMessage!({ message: 'hello' })).rejects.toThrow(/agent wallets sign no messages/);
  });
});

describe('credentials and TLS', () => {
  it('names a refused credential without showing it', async () => {
    const wrong = remote({ authHeader: { name: 'Authorization', value: 'Bearer wrong-token-value' } });
    const err = await wrong.accounts().catch((e) => e);
    expect(err).toBeInstanceOf(RemoteSignerError);
    expect(err.down).toBe(false);
    expect(err.message).toBe(
      `remote signer ${signer.url}: eth_accounts was refused with HTTP 401: check WALLET_SIGNER_AUTH_HEADER and the client certificate`,
    );
    expect(`${err.message} ${err.stack}`).not.toMatch(/wrong-token-value|s3cret/);
    // A password in the URL is sent as basic authentication and never shown either.
    const [host] = signer.url.split('//').slice(1);
    const inUrl = remote({ url: `http://user:hunter2-pass@${host}`, authHeader: undefined });
    const e2 = await inUrl.accounts().catch((e) => e);
    expect(e2.message).toContain(`remote signer http://${host}: eth_accounts was refused with HTTP 401`);
    expect(e2.message).not.toContain('hunter2');
    expect(signer.calls.at(-1)!.headers.authorization).toBe(
      `Basic ${Buffer.from('user:hunter2-pass').toString('base64')}`,
    );
  });

  it('reaches an HTTPS signer whose certificate a private CA signed, and only with that CA', async () => {
    const key = path.join(tmp, 'key.pem');
    const cert = path.join(tmp, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const tlsSigner = await startTestSigner({
      keys: 1,
      tls: { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') },
    });
    try {
      expect(tlsSigner.url).toMatch(/^https:/);
      const trusted = remote({ url: tlsSigner.url, authHeader: undefined, caFile: cert });
      expect(await trusted.accounts()).toEqual(tlsSigner.addresses);
      const untrusted = remote({ url: tlsSigner.url, authHeader: undefined });
      await expect(untrusted.accounts()).rejects.toThrow(/eth_accounts did not answer \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
      expect(() => remote({ url: tlsSigner.url, caFile: path.join(tmp, 'absent.pem') })).toThrow(
        `WALLET_SIGNER_CA_FILE: cannot read ${path.join(tmp, 'absent.pem')} (ENOENT)`,
      );
    } finally {
      await tlsSigner.stop();
    }
  });
});
