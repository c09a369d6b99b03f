// The web app's permits (web/src/permit.ts) against a USDC that behaves as Base's does (contracts/test/FiatTokenUSDC.sol:
// Circle's FiatTokenV2_2 domain, name "USD Coin" and version "2", and no ERC-5267 eip712Domain()). Audit round four
// found that the app read the domain with eip712Domain() only, so on Base it silently fell back to an approval and a
// permit buy never happened. On an anvil whose chain id is Base's, with the token's code at Base's USDC address, the
// app's own signPermit signs with the known domain through the node's wallet (eth_signTypedData_v4, as a browser
// wallet does) and the token accepts the permit; where the known domain does not match the token's
// DOMAIN_SEPARATOR(), or the token is not one the app knows, it signs nothing and the app approves instead.

import { FiatTokenUSDCAbi, PermitMockUSDCAbi } from '@ai-economy/shared/abis';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  domainSeparator,
  getAddress,
  http,
  type PublicClient,
  parseUnits,
  type WalletClient,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../../src/chain/anvil.ts';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { devAccount } from '../../src/chain/client.ts';
import { KNOWN_PERMIT_DOMAINS, permitDomain, signPermit } from '../../web/src/permit.ts';
import { anvilTestClient } from '../helpers/chain.ts';

const BASE_CHAIN_ID = 8453;
const BASE_USDC = getAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
const BASE_SEPOLIA_CHAIN_ID = 84532;
const BASE_SEPOLIA_USDC = getAddress('0x036CbD53842c5426634e7929541eC2318f3dCF7e');

let node: AnvilNode;
let client: PublicClient;
let wallet: WalletClient;
let test: ReturnType<typeof anvilTestClient>;
/** The same token at an address the app knows nothing about. */
let unknownUsdc: Address;
const owner = devAccount(1).address;
const spender = devAccount(2).address;
const usdc = (n: string) => parseUnits(n, 6);

async function mined(hash: `0x${string}`) {
  const receipt = await client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

const read = (address: Address, functionName: string, args: readonly unknown[] = []) =>
  client.readContract({ address, abi: FiatTokenUSDCAbi, functionName, args } as never) as Promise<unknown>;

/** The app's permit for `spender` to take `value` of `token`, valid for ten minutes. */
async function appPermit(token: Address, value: bigint) {
  const deadline = (await client.getBlock()).timestamp + 600n;
  return { deadline, signature: await signPermit(client, wallet, { token, owner, spender, value, deadline }) };
}

/** The token's own `permit`, sent by the spender with the app's signature. */
async function usePermit(
  token: Address,
  value: bigint,
  deadline: bigint,
  sig: { v: number; r: `0x${string}`; s: `0x${string}` },
) {
  await mined(
    await wallet.writeContract({
      account: spender,
      chain: null,
      address: token,
      abi: FiatTokenUSDCAbi,
      functionName: 'permit',
      args: [owner, spender, value, deadline, sig.v, sig.r, sig.s],
    }),
  );
}

beforeAll(async () => {
  node = await startAnvil({ chainId: BASE_CHAIN_ID });
  // The app's clients: no chain configured, the node's wallet signs (a JSON-RPC account, as a browser wallet is).
  client = createPublicClient({ transport: http(node.rpcUrl) });
  wallet = createWalletClient({ transport: http(node.rpcUrl) });
  test = anvilTestClient(node.rpcUrl);
  const { contractAddress } = await mined(
    await wallet.deployContract({
      account: devAccount(0).address,
      chain: null,
      abi: FiatTokenUSDCAbi,
      bytecode: loadArtifact('FiatTokenUSDC').bytecode,
    }),
  );
  unknownUsdc = contractAddress!;
  // Base's USDC address holds the same code (its name, symbol and version are constants, not storage).
  await test.setCode({ address: BASE_USDC, bytecode: (await client.getCode({ address: unknownUsdc }))! });
  for (const token of [BASE_USDC, unknownUsdc]) {
    await mined(
      await wallet.writeContract({
        account: owner,
        chain: null,
        address: token,
        abi: FiatTokenUSDCAbi,
        functionName: 'mint',
        args: [owner, usdc('1000')],
      }),
    );
  }
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe("a USDC like Base's (no eip712Domain)", () => {
  it('has no eip712Domain(), but the FiatToken domain: "USD Coin", version "2", the chain id, its address', async () => {
    await expect(
      client.readContract({
        address: BASE_USDC,
        abi: PermitMockUSDCAbi,
        functionName: 'eip712Domain',
      }),
    ).rejects.toThrow();
    expect(await read(BASE_USDC, 'name')).toBe('USD Coin');
    expect(await read(BASE_USDC, 'version')).toBe('2');
    expect(KNOWN_PERMIT_DOMAINS[BASE_CHAIN_ID]?.[BASE_USDC]).toEqual({ name: 'USD Coin', version: '2' });
    expect(await read(BASE_USDC, 'DOMAIN_SEPARATOR')).toBe(
      domainSeparator({
        domain: { name: 'USD Coin', version: '2', chainId: BASE_CHAIN_ID, verifyingContract: BASE_USDC },
      }),
    );
  });

  it("the app signs a permit with USDC's known domain, and the token accepts it", async () => {
    expect(await permitDomain(client, BASE_USDC)).toEqual({
      name: 'USD Coin',
      version: '2',
      chainId: BigInt(BASE_CHAIN_ID),
      verifyingContract: BASE_USDC,
    });
    const value = usdc('250');
    const nonce = await read(BASE_USDC, 'nonces', [owner]);
    const { deadline, signature } = await appPermit(BASE_USDC, value);
    expect(signature).toBeDefined();
    await usePermit(BASE_USDC, value, deadline, signature!);
    expect(await read(BASE_USDC, 'allowance', [owner, spender])).toBe(value);
    expect(await read(BASE_USDC, 'nonces', [owner])).toBe((nonce as bigint) + 1n);
    // And the spender can take it, as a platform contract's ...WithPermit entry point does in the same transaction.
    await mined(
      await wallet.writeContract({
        account: spender,
        chain: null,
        address: BASE_USDC,
        abi: FiatTokenUSDCAbi,
        functionName: 'transferFrom',
        args: [owner, spender, value],
      }),
    );
    expect(await read(BASE_USDC, 'balanceOf', [spender])).toBe(value);
  });

  it('signs nothing for such a token at an address it does not know (the app approves instead)', async () => {
    expect(await permitDomain(client, unknownUsdc)).toBeUndefined();
    expect((await appPermit(unknownUsdc, usdc('1'))).signature).toBeUndefined();
  });

  it("signs nothing when the known domain is not the token's: checked against DOMAIN_SEPARATOR() first", async () => {
    // The same code at Base Sepolia's USDC address on a chain with Base Sepolia's id: the table says Circle's test
    // USDC is named "USDC", this token says "USD Coin", so a permit on the table's word would be refused.
    await test.setCode({ address: BASE_SEPOLIA_USDC, bytecode: (await client.getCode({ address: unknownUsdc }))! });
    await client.request({ method: 'anvil_setChainId' as never, params: [BASE_SEPOLIA_CHAIN_ID] as never });
    try {
      expect(KNOWN_PERMIT_DOMAINS[BASE_SEPOLIA_CHAIN_ID]?.[BASE_SEPOLIA_USDC]).toEqual({ name: 'USDC', version: '2' });
      expect(await permitDomain(client, BASE_SEPOLIA_USDC)).toBeUndefined();
      expect((await appPermit(BASE_SEPOLIA_USDC, usdc('1'))).signature).toBeUndefined();
    } finally {
      await client.request({ method: 'anvil_setChainId' as never, params: [BASE_CHAIN_ID] as never });
    }
  });

  it('still reads the domain a token publishes (ERC-5267) before any table', async () => {
    const { contractAddress } = await mined(
      await wallet.deployContract({
        account: devAccount(0).address,
        chain: null,
        abi: PermitMockUSDCAbi,
        bytecode: loadArtifact('PermitMockUSDC').bytecode,
        args: [devAccount(0).address],
      }),
    );
    const token = getAddress(contractAddress!);
    expect(await permitDomain(client, token)).toEqual({
      name: 'USD Coin (mock)',
      version: '1',
      chainId: BigInt(BASE_CHAIN_ID),
      verifyingContract: token,
    });
    const { deadline, signature } = await appPermit(token, usdc('5'));
    await usePermit(token, usdc('5'), deadline, signature!);
    expect(await read(token, 'allowance', [owner, spender])).toBe(usdc('5'));
  });
});
