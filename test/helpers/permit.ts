// EIP-2612 permits signed as a wallet signs them, for the contract tests of the one-transaction entry points
// (AccessCard.mintWithPermit, Staking.depositWithPermit, TokenLauncher.buyWithPermit and sellWithPermit).
import { type Address, type Hex, type PublicClient, parseAbi, parseSignature, type WalletClient } from 'viem';

/** The reads of an ERC-2612 token a permit needs (ERC-5267's domain, the owner's nonce). */
export const PERMIT_READS = parseAbi([
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
  'function nonces(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
]);

export interface PermitSignature {
  v: number;
  r: Hex;
  s: Hex;
}

/**
 * `wallet`'s permit for `spender` to take `value` of `token` until `deadline`: the token's own domain (read with
 * eip712Domain) and the owner's current nonce, signed as typed data.
 */
export async function signPermit(
  client: Pick<PublicClient, 'readContract'>,
  wallet: WalletClient,
  { token, spender, value, deadline }: { token: Address; spender: Address; value: bigint; deadline: bigint },
): Promise<PermitSignature> {
  const account = wallet.account;
  if (!account) throw new Error('the wallet has no account');
  const owner = account.address;
  const [[, name, version, chainId, verifyingContract], nonce] = await Promise.all([
    client.readContract({ address: token, abi: PERMIT_READS, functionName: 'eip712Domain' }),
    client.readContract({ address: token, abi: PERMIT_READS, functionName: 'nonces', args: [owner] }),
  ]);
  const signature = await wallet.signTypedData({
    account,
    domain: { name, version, chainId: Number(chainId), verifyingContract },
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner, spender, value, nonce, deadline },
  });
  const { v, r, s } = parseSignature(signature);
  return { v: Number(v), r, s };
}
