// EIP-2612 permits, so that a buy, a sale, a mint or a stake is one transaction: the wallet signs (off-chain, no
// gas) that the platform contract may take exactly the amount, and the contract's `...WithPermit` entry point uses
// the signature in the same transaction. The token's EIP-712 domain is read from the token itself (ERC-5267
// `eip712Domain()`), so its name and version are never guessed. Circle's USDC (FiatTokenV2_2, Base's) has no
// `eip712Domain()`: its domain is known instead (KNOWN_PERMIT_DOMAINS) and checked against the token's own
// `DOMAIN_SEPARATOR()` before anything is signed.
import {
  type Abi,
  type Address,
  domainSeparator,
  getAddress,
  type Hex,
  type PublicClient,
  parseAbi,
  parseSignature,
  type WalletClient,
} from 'viem';

const PERMIT_READS = parseAbi([
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
  'function nonces(address owner) view returns (uint256)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
]);

/**
 * The EIP-712 name and version of permit tokens that do not publish their domain (no ERC-5267 `eip712Domain()`), by
 * chain id and address: Circle's USDC on Base ("USD Coin") and on Base Sepolia (Circle's test USDC is named "USDC"),
 * both version "2". The domain's chain id and verifying contract are the chain's and the token's.
 */
export const KNOWN_PERMIT_DOMAINS: Readonly<
  Record<number, Readonly<Record<Address, { name: string; version: string }>>>
> = {
  8453: { '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913': { name: 'USD Coin', version: '2' } },
  84532: { '0x036CbD53842c5426634e7929541eC2318f3dCF7e': { name: 'USDC', version: '2' } },
};

type PermitDomain = { name: string; version: string; chainId: bigint; verifyingContract: Address };

/**
 * The token's EIP-712 domain: the one it publishes (ERC-5267), else the known one for its chain and address when it
 * matches the token's `DOMAIN_SEPARATOR()`; undefined when neither (a permit signed on a guess would be refused).
 */
export async function permitDomain(client: PublicClient, token: Address): Promise<PermitDomain | undefined> {
  try {
    const [, name, version, chainId, verifyingContract] = await client.readContract({
      address: token,
      abi: PERMIT_READS,
      functionName: 'eip712Domain',
    });
    return { name, version, chainId, verifyingContract };
  } catch {
    // no ERC-5267: a domain known for this token, checked against the token's own separator below
  }
  const chainId = await client.getChainId();
  const known = KNOWN_PERMIT_DOMAINS[chainId]?.[getAddress(token)];
  if (!known) return undefined;
  const domain = { ...known, chainId: BigInt(chainId), verifyingContract: getAddress(token) };
  const separator = await client
    .readContract({ address: token, abi: PERMIT_READS, functionName: 'DOMAIN_SEPARATOR' })
    .catch(() => undefined);
  return separator === domainSeparator({ domain }) ? domain : undefined;
}

const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

export interface PermitSignature {
  v: number;
  r: Hex;
  s: Hex;
}

/** Whether the contract's ABI has the one-transaction entry point `name` (the contracts this app was built with). */
export const hasEntryPoint = (abi: Abi, name: string) =>
  abi.some((item) => item.type === 'function' && item.name === name);

/** A user who refused to sign: the action stops there; any other signing failure falls back to an approval. */
const refused = (err: unknown) => {
  const e = err as { name?: string; code?: number; message?: string };
  return e?.name === 'UserRejectedRequestError' || e?.code === 4001 || /reject|denied/i.test(e?.message ?? '');
};

/**
 * The owner's signed permit for `spender` to take `value` of `token` until `deadline`; undefined when the token
 * offers no permit, its domain is neither published nor known, or the wallet cannot sign typed data (the caller
 * then approves instead).
 */
export async function signPermit(
  client: PublicClient,
  wallet: WalletClient,
  p: { token: Address; owner: Address; spender: Address; value: bigint; deadline: bigint },
): Promise<PermitSignature | undefined> {
  let domain: PermitDomain | undefined;
  let nonce: bigint;
  try {
    [domain, nonce] = await Promise.all([
      permitDomain(client, p.token),
      client.readContract({ address: p.token, abi: PERMIT_READS, functionName: 'nonces', args: [p.owner] }),
    ]);
  } catch {
    return undefined;
  }
  if (!domain) return undefined;
  try {
    const signature = await wallet.signTypedData({
      account: p.owner,
      domain: { ...domain, chainId: Number(domain.chainId) },
      types: PERMIT_TYPES,
      primaryType: 'Permit',
      message: { owner: p.owner, spender: p.spender, value: p.value, nonce, deadline: p.deadline },
    });
    const { r, s, v, yParity } = parseSignature(signature);
    return { r, s, v: Number(v ?? BigInt(27 + (yParity ?? 0))) };
  } catch (err) {
    if (refused(err)) throw err;
    return undefined;
  }
}
