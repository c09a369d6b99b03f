// EIP-2612 permits, so that a buy, a sale, a mint or a stake is one transaction: the wallet signs (off-chain, no
// gas) that the platform contract may take exactly the amount, and the contract's `...WithPermit` entry point uses
// the signature in the same transaction. The token's EIP-712 domain is read from the token itself (ERC-5267
// `eip712Domain()`), so its name and version are never guessed.
import { type Abi, type Address, type Hex, type PublicClient, parseAbi, parseSignature, type WalletClient } from 'viem';

const PERMIT_READS = parseAbi([
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
  'function nonces(address owner) view returns (uint256)',
]);

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
 * offers no permit or the wallet cannot sign typed data (the caller then approves instead).
 */
export async function signPermit(
  client: PublicClient,
  wallet: WalletClient,
  p: { token: Address; owner: Address; spender: Address; value: bigint; deadline: bigint },
): Promise<PermitSignature | undefined> {
  let domain: { name: string; version: string; chainId: bigint; verifyingContract: Address };
  let nonce: bigint;
  try {
    const [eip712, n] = await Promise.all([
      client.readContract({ address: p.token, abi: PERMIT_READS, functionName: 'eip712Domain' }),
      client.readContract({ address: p.token, abi: PERMIT_READS, functionName: 'nonces', args: [p.owner] }),
    ]);
    const [, name, version, chainId, verifyingContract] = eip712;
    domain = { name, version, chainId, verifyingContract };
    nonce = n;
  } catch {
    return undefined;
  }
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
