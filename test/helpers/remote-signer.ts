// A remote signer of the tests' own: a real HTTP(S) server on loopback holding private keys and answering the
// Ethereum JSON-RPC signing methods as Web3Signer does (eth_accounts, eth_signTransaction, eth_signTypedData), so
// the remote wallet provider is tested against a signer on the other side of a socket. It can be stopped and started
// again on the same port (an outage), and told to misbehave: sign with a key it does not list, sign another
// transaction than the one asked for, or answer a malformed signature.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type Address, type Hex, isAddressEqual, type PrivateKeyAccount, type TransactionSerializable } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

export type SignerMode = 'honest' | 'other-key' | 'other-transaction' | 'malformed';

export interface TestSigner {
  url: string;
  /** The addresses it lists, in its order. */
  readonly addresses: Address[];
  /** How it signs from now on. */
  mode: SignerMode;
  /** Every call it received: its method and request headers. */
  readonly calls: { method: string; headers: http.IncomingHttpHeaders }[];
  /** Adds a key (as an operator adding one to the signer); listed last, or first with `first`. */
  addKey(options?: { first?: boolean }): Address;
  /** Stops answering (connections refused) until `up()`, which listens on the same port again. */
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestSignerOptions {
  keys?: number;
  chainId?: number;
  /** The value of `Authorization` it requires (401 otherwise). */
  authorization?: string;
  /** Serves HTTPS with this certificate and key (PEM). */
  tls?: { cert: string; key: string };
}

const quantity = (v: unknown) => (typeof v === 'string' ? BigInt(v) : undefined);

export async function startTestSigner(options: TestSignerOptions = {}): Promise<TestSigner> {
  const chainId = options.chainId ?? 31337;
  const accounts: PrivateKeyAccount[] = [];
  for (let i = 0; i < (options.keys ?? 4); i++) accounts.push(privateKeyToAccount(generatePrivateKey()));
  const stranger = privateKeyToAccount(generatePrivateKey());
  const calls: TestSigner['calls'] = [];
  const state = { mode: 'honest' as SignerMode };

  const accountOf = (address: unknown) => {
    const account = accounts.find((a) => typeof address === 'string' && isAddressEqual(a.address, address as Address));
    if (!account) throw Object.assign(new Error('No key for given address'), { code: -32000 });
    return account;
  };

  async function answer(method: string, params: unknown[]): Promise<unknown> {
    switch (method) {
      case 'eth_accounts':
        return accounts.map((a) => a.address.toLowerCase());
      case 'eth_signTransaction': {
        const p = params[0] as Record<string, string | undefined>;
        const account = accountOf(p.from);
        const tx: TransactionSerializable = {
          chainId,
          to: p.to as Address,
          data: (p.data ?? p.input ?? '0x') as Hex,
          value: quantity(p.value) ?? 0n,
          nonce: Number(quantity(p.nonce) ?? 0n),
          gas: quantity(p.gas) ?? 90_000n,
          ...(p.maxFeePerGas
            ? {
                type: 'eip1559',
                maxFeePerGas: quantity(p.maxFeePerGas),
                maxPriorityFeePerGas: quantity(p.maxPriorityFeePerGas),
              }
            : { type: 'legacy', gasPrice: quantity(p.gasPrice) }),
        } as TransactionSerializable;
        if (state.mode === 'malformed') return '0x02f8deadbeef';
        if (state.mode === 'other-key') return stranger.signTransaction(tx as never);
        if (state.mode === 'other-transaction') {
          return account.signTransaction({ ...tx, to: stranger.address, value: 1n } as never);
        }
        return account.signTransaction(tx as never);
      }
      case 'eth_signTypedData': {
        const account = accountOf(params[0]);
        const raw = params[1];
        const typed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
          domain: Record<string, unknown>;
          types: Record<string, unknown>;
          primaryType: string;
          message: Record<string, unknown>;
        };
        const { EIP712Domain: _, ...types } = typed.types;
        const definition = { domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message };
        if (state.mode === 'malformed') return `0x${'ab'.repeat(64)}`;
        if (state.mode === 'other-key') return stranger.signTypedData(definition as never);
        return account.signTypedData(definition as never);
      }
      default:
        throw Object.assign(new Error(`Method ${method} not found`), { code: -32601 });
    }
  }

  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let id: unknown = null;
      try {
        const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          id: unknown;
          method: string;
          params?: unknown[];
        };
        id = request.id;
        calls.push({ method: request.method, headers: req.headers });
        if (options.authorization !== undefined && req.headers.authorization !== options.authorization) {
          res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
          return;
        }
        const result = await answer(request.method, request.params ?? []);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
      } catch (err) {
        const e = err as { code?: number; message: string };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: e.code ?? -32603, message: e.message } }));
      }
    });
  };

  const make = () => (options.tls ? https.createServer(options.tls, handler) : http.createServer(handler));
  let server = make();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let running = true;
  const close = async () => {
    if (!running) return;
    running = false;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    get addresses() {
      return accounts.map((a) => a.address);
    },
    get mode() {
      return state.mode;
    },
    set mode(mode: SignerMode) {
      state.mode = mode;
    },
    calls,
    addKey(add = {}) {
      const account = privateKeyToAccount(generatePrivateKey());
      if (add.first) accounts.unshift(account);
      else accounts.push(account);
      return account.address;
    },
    down: close,
    async up() {
      if (running) return;
      server = make();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      running = true;
    },
    stop: close,
  };
}
