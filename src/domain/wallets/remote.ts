// Agent wallets whose keys live in a remote signer (WALLET_PROVIDER=remote): a service reached over HTTP(S) that
// speaks the Ethereum JSON-RPC signing methods Web3Signer implements (`eth_accounts`, `eth_signTransaction`,
// `eth_signTypedData`), in front of a KMS, a vault or an MPC service. The platform never sees a key. It trusts
// nothing the signer answers either: every signed transaction is parsed and must be exactly the one asked for,
// recovering to the wallet's address, and every typed-data signature must recover to it; anything else is refused
// before it is recorded or broadcast (docs/operations.md "Agent keys").
//
// Which signer key is which wallet index is kept in `signer_wallets`: an index is given a key the first time it is
// asked for (one the signer lists that no other wallet has), and keeps it, so keys may be added to the signer at any
// time. A wallet an agent already recorded under the seed provider keeps its address: its key must be imported into
// the signer.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { eq, isNotNull } from 'drizzle-orm';
import {
  type Account,
  type Address,
  getAddress,
  getTypesForEIP712Domain,
  type Hex,
  isAddress,
  isAddressEqual,
  isHex,
  parseTransaction,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  serializeTypedData,
  type TransactionSerializable,
  type TypedDataDefinition,
} from 'viem';
import { toAccount } from 'viem/accounts';
import type { RemoteSignerConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { agents } from '../../db/schema/agents.ts';
import { signerWallets } from '../../db/schema/wallets.ts';
import type { WalletProvider } from './provider.ts';

/** A signer that failed, answered an error, or answered something the platform refuses. Carries no secret. */
export class RemoteSignerError extends Error {
  /** True when the signer did not answer or answered a server error (it may come back); false for a refusal. */
  readonly down: boolean;
  constructor(message: string, options?: { cause?: unknown; down?: boolean }) {
    super(message, { cause: options?.cause });
    this.name = 'RemoteSignerError';
    this.down = options?.down ?? false;
  }
}

/** Largest answer read from the signer: a signed transaction of the platform is a few kilobytes. */
const ANSWER_MAX_BYTES = 1024 * 1024;

/** The signer's URL as shown in messages and logs: no user, password, query or fragment. */
export function shownUrl(raw: string): string {
  const u = new URL(raw);
  return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
}

const shortText = (value: unknown, max = 200) => {
  const s = (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))).replace(
    /[^\x20-\x7e]/g,
    '?',
  );
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

function readPem(file: string | undefined, variable: string): Buffer | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file);
  } catch (err) {
    throw new RemoteSignerError(`${variable}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

export interface RemoteWalletProvider extends WalletProvider {
  /** The addresses the signer holds (eth_accounts); throws a RemoteSignerError when it cannot tell. */
  accounts(): Promise<Address[]>;
  /** Closes the kept-alive connections to the signer. */
  close(): void;
}

export function createRemoteWalletProvider(options: { db: Db; signer: RemoteSignerConfig }): RemoteWalletProvider {
  const { db, signer } = options;
  const target = new URL(signer.url);
  const where = shownUrl(signer.url);
  const tls = {
    ca: readPem(signer.caFile, 'WALLET_SIGNER_CA_FILE'),
    cert: readPem(signer.clientCertFile, 'WALLET_SIGNER_CLIENT_CERT_FILE'),
    key: readPem(signer.clientKeyFile, 'WALLET_SIGNER_CLIENT_KEY_FILE'),
  };
  const agent =
    target.protocol === 'https:' ? new https.Agent({ keepAlive: true, ...tls }) : new http.Agent({ keepAlive: true });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (target.username || target.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`;
  }
  if (signer.authHeader) headers[signer.authHeader.name.toLowerCase()] = signer.authHeader.value;
  let nextId = 1;

  /** One JSON-RPC call; its result, or a RemoteSignerError saying what went wrong (never a header's value). */
  function call(method: string, params: unknown[]): Promise<unknown> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
    return new Promise((resolve, reject) => {
      const fail = (message: string, cause?: unknown, down = false) =>
        reject(new RemoteSignerError(`remote signer ${where}: ${method} ${message}`, { cause, down }));
      const request = (target.protocol === 'https:' ? https : http).request(
        {
          protocol: target.protocol,
          hostname: target.hostname.replace(/^\[|\]$/g, ''),
          port: target.port || undefined,
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent,
          timeout: signer.timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > ANSWER_MAX_BYTES) {
              response.destroy();
              fail(`answered more than ${ANSWER_MAX_BYTES} bytes`);
              return;
            }
            chunks.push(chunk);
          });
          response.on('error', (err) => fail(`answer broke off (${err.message})`, err, true));
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            if (status === 401 || status === 403) {
              fail(`was refused with HTTP ${status}: check WALLET_SIGNER_AUTH_HEADER and the client certificate`);
              return;
            }
            if (status < 200 || status >= 300) {
              fail(`answered HTTP ${status}`, undefined, status >= 500 || status === 429);
              return;
            }
            let answer: { result?: unknown; error?: { code?: unknown; message?: unknown } };
            try {
              answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              fail('answered something that is not JSON');
              return;
            }
            if (answer && typeof answer === 'object' && answer.error) {
              fail(`failed: ${shortText(answer.error.message ?? answer.error)} (code ${shortText(answer.error.code)})`);
              return;
            }
            if (!answer || typeof answer !== 'object' || !('result' in answer)) {
              fail('answered without a result');
              return;
            }
            resolve(answer.result);
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${signer.timeoutMs} ms`)));
      request.on('error', (err: NodeJS.ErrnoException) =>
        fail(`did not answer (${err.code ?? err.message}); the signing is retried when it is back`, err, true),
      );
      request.end(body);
    });
  }

  async function accounts(): Promise<Address[]> {
    const result = await call('eth_accounts', []);
    if (!Array.isArray(result) || !result.every((a) => typeof a === 'string' && isAddress(a, { strict: false }))) {
      throw new RemoteSignerError(
        `remote signer ${where}: eth_accounts answered something that is not a list of addresses`,
      );
    }
    return result.map((a) => getAddress(a));
  }

  const known = new Map<number, Address>();

  async function assigned(index: number): Promise<Address | undefined> {
    const [row] = await db
      .select({ address: signerWallets.address })
      .from(signerWallets)
      .where(eq(signerWallets.walletIndex, index));
    return row ? getAddress(row.address) : undefined;
  }

  async function addressOf(index: number): Promise<Address> {
    if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) throw new Error(`invalid wallet index ${index}`);
    const cached = known.get(index);
    if (cached) return cached;
    let address = await assigned(index);
    if (!address) address = await assign(index);
    known.set(index, address);
    return address;
  }

  /** Gives wallet `index` a key of the signer, once: a concurrent caller (any process) finds the same one. */
  async function assign(index: number): Promise<Address> {
    const held = await accounts();
    const recordedRows = await db
      .select({ walletIndex: agents.walletIndex, address: agents.onChainAddress })
      .from(agents)
      .where(isNotNull(agents.onChainAddress));
    const recorded = recordedRows.find((r) => r.walletIndex === index)?.address;
    let candidates: Address[];
    if (recorded) {
      // A wallet made by another provider keeps its address; the signer must hold its key.
      const mine = held.find((a) => isAddressEqual(a, recorded as Address));
      if (!mine) {
        throw new RemoteSignerError(
          `wallet ${index} is recorded as ${recorded}, which the remote signer ${where} does not hold: import that key into the signer`,
        );
      }
      candidates = [mine];
    } else {
      const taken = new Set([
        ...(await db.select({ address: signerWallets.address }).from(signerWallets)).map((r) => r.address),
        ...recordedRows.map((r) => r.address!.toLowerCase()),
      ]);
      candidates = held.filter((a) => !taken.has(a.toLowerCase()));
    }
    for (const candidate of candidates) {
      const [inserted] = await db
        .insert(signerWallets)
        .values({ walletIndex: index, address: candidate.toLowerCase() })
        .onConflictDoNothing()
        .returning({ address: signerWallets.address });
      if (inserted) return candidate;
      const now = await assigned(index);
      if (now) return now;
    }
    // Another process may have given this index its key meanwhile, taking the last free one.
    const now = await assigned(index);
    if (now) return now;
    throw new RemoteSignerError(
      `the remote signer ${where} holds no key that is not already an agent wallet (${held.length} keys): add keys to the signer for wallet ${index}`,
    );
  }

  async function signTypedDataAs(address: Address, typedData: TypedDataDefinition): Promise<Hex> {
    const {
      domain = {},
      message,
      primaryType,
    } = typedData as {
      domain?: Record<string, unknown>;
      message: Record<string, unknown>;
      primaryType: string;
    };
    const types = { EIP712Domain: getTypesForEIP712Domain({ domain }), ...(typedData.types as object) };
    const signature = await call('eth_signTypedData', [
      address,
      serializeTypedData({ domain, message, primaryType, types } as never),
    ]);
    if (typeof signature !== 'string' || !isHex(signature) || signature.length !== 132) {
      throw new RemoteSignerError(`remote signer ${where}: eth_signTypedData answered a malformed signature; refused`);
    }
    let signer: Address;
    try {
      signer = await recoverTypedDataAddress({ ...(typedData as object), signature } as never);
    } catch (err) {
      throw new RemoteSignerError(`remote signer ${where}: eth_signTypedData answered a malformed signature; refused`, {
        cause: err,
      });
    }
    if (!isAddressEqual(signer, address)) {
      throw new RemoteSignerError(
        `remote signer ${where}: the typed data was signed by ${signer}, not by wallet ${address}; refused`,
      );
    }
    return signature;
  }

  async function signTransactionAs(address: Address, tx: TransactionSerializable): Promise<Hex> {
    const q = (v: bigint | number | undefined) => (v === undefined ? undefined : `0x${BigInt(v).toString(16)}`);
    const request = {
      from: address,
      to: tx.to ?? undefined,
      gas: q(tx.gas),
      value: q(tx.value ?? 0n),
      data: tx.data ?? '0x',
      nonce: q(tx.nonce),
      gasPrice: q(tx.gasPrice),
      maxFeePerGas: q(tx.maxFeePerGas),
      maxPriorityFeePerGas: q(tx.maxPriorityFeePerGas),
    };
    const raw = await call('eth_signTransaction', [request]);
    const refuse = (why: string, cause?: unknown) =>
      new RemoteSignerError(`remote signer ${where}: eth_signTransaction ${why}; refused`, { cause });
    if (typeof raw !== 'string' || !isHex(raw)) throw refuse('answered something that is not a signed transaction');
    let signed: ReturnType<typeof parseTransaction>;
    let from: Address;
    try {
      signed = parseTransaction(raw);
      from = await recoverTransactionAddress({ serializedTransaction: raw as never });
    } catch (err) {
      throw refuse('answered a malformed signed transaction', err);
    }
    // The signer may have filled or changed fields: the transaction broadcast must be the one the outbox recorded.
    const same = (a: unknown, b: unknown) => (a ?? undefined) === (b ?? undefined);
    const mismatched = [
      !same(signed.chainId, tx.chainId) && 'chainId',
      !same(signed.nonce ?? 0, tx.nonce ?? 0) && 'nonce',
      !(signed.to && tx.to ? isAddressEqual(signed.to, tx.to) : same(signed.to, tx.to)) && 'to',
      !same(signed.value ?? 0n, tx.value ?? 0n) && 'value',
      !same((signed.data ?? '0x').toLowerCase(), (tx.data ?? '0x').toLowerCase()) && 'data',
      !same(signed.gas, tx.gas) && 'gas',
      !same(signed.gasPrice, tx.gasPrice) && 'gasPrice',
      !same(signed.maxFeePerGas, tx.maxFeePerGas) && 'maxFeePerGas',
      !same(signed.maxPriorityFeePerGas, tx.maxPriorityFeePerGas) && 'maxPriorityFeePerGas',
    ].filter(Boolean);
    if (mismatched.length > 0) throw refuse(`signed another transaction (${mismatched.join(', ')} differ)`);
    if (!isAddressEqual(from, address)) throw refuse(`signed as ${from}, not as wallet ${address}`);
    return raw;
  }

  return {
    kind: 'remote',
    accounts,
    close: () => agent.destroy(),
    addressOf,
    signTypedData: async (index, typedData) => signTypedDataAs(await addressOf(index), typedData),
    accountOf: async (index): Promise<Account> => {
      const address = await addressOf(index);
      return toAccount({
        address,
        signTransaction: (tx) => signTransactionAs(address, tx as TransactionSerializable),
        signTypedData: (typedData) => signTypedDataAs(address, typedData as TypedDataDefinition),
        // The platform signs no messages with agent wallets; a caller that starts to must add eth_sign here.
        signMessage: async () => {
          throw new RemoteSignerError('agent wallets sign no messages (only transactions and typed data)');
        },
      });
    },
  };
}
