// What the owner's wallet signs to take money out of the company's Safe: the service builds the Safe transaction
// (POST /api/companies/{id}/safe/withdrawal), and before the wallet signs it the app checks that it is exactly what
// the owner asked and the screen says, a USDC transfer of the amount to the owner's own wallet from the company's
// Safe on this chain, called (not delegate-called), sending no ether and paying no refund. Anything else is
// refused unsigned: a service that built another transaction, by a bug or otherwise, gets no signature for it.
import { type Address, decodeFunctionData, erc20Abi, type Hex, isAddressEqual } from 'viem';
import { amountOf, USDC } from './format.ts';

/** The Safe transaction's typed data as the service answers it (uint fields as decimal strings). */
export interface BuiltWithdrawal {
  safe: Address;
  typedData: {
    domain: { chainId: number; verifyingContract: Address };
    message: Record<string, string | number>;
  };
}

export interface AskedWithdrawal {
  chainId: number;
  /** The company's Safe, as the company's record names it. */
  safe: Address;
  usdc: Address;
  /** The owner's wallet: the signer, and where the money goes. */
  to: Address;
  /** In USDC base units. */
  amount: bigint;
}

/** Why a built withdrawal is not the one asked, as the sentence to show; undefined when it is. */
export function withdrawalMismatch(built: BuiltWithdrawal, asked: AskedWithdrawal): string | undefined {
  let problem: string | undefined;
  try {
    problem = differences(built, asked);
  } catch {
    // An address or a number that does not parse.
    problem = 'it is not a transaction the app can read';
  }
  return problem === undefined
    ? undefined
    : `The withdrawal the service built is not the one you asked for (${problem}): nothing was signed. Try again, or tell the platform.`;
}

/** The first way `built` differs from `asked`, in words; throws on a field that does not parse. */
function differences(built: BuiltWithdrawal, asked: AskedWithdrawal): string | undefined {
  const m = built.typedData.message;
  const { domain } = built.typedData;
  if (!isAddressEqual(built.safe, asked.safe) || !isAddressEqual(domain.verifyingContract, asked.safe)) {
    return "it is not for the company's Safe";
  }
  if (domain.chainId !== asked.chainId) return 'it is for another chain';
  if (!isAddressEqual(String(m.to) as Address, asked.usdc)) return 'it does not call USDC';
  if (BigInt(m.value ?? -1) !== 0n) return 'it sends ether';
  if (Number(m.operation) !== 0) return 'it is a delegate call';
  if (BigInt(m.gasPrice ?? -1) !== 0n) return 'it pays a refund out of the Safe';
  let call: ReturnType<typeof decodeFunctionData<typeof erc20Abi>>;
  try {
    call = decodeFunctionData({ abi: erc20Abi, data: String(m.data) as Hex });
  } catch {
    return 'it is not a token transfer';
  }
  if (call.functionName !== 'transfer') return 'it is not a transfer';
  const [to, amount] = call.args;
  if (!isAddressEqual(to, asked.to)) return 'it pays another address than your wallet';
  if (amount !== asked.amount) return `it moves ${amountOf(amount, USDC)}, not ${amountOf(asked.amount, USDC)}`;
  return undefined;
}
