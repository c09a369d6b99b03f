// What the owner's wallet signs to take USDC out of the company's Safe (web/src/safe-withdrawal.ts): the Safe
// transaction the service built is signed only when it is the transfer the owner asked for, of that amount, to the
// owner's wallet, from the company's Safe on this chain; each way a built transaction can differ is named, and the
// page refuses it unsigned with that sentence (web/src/company-setup.tsx).
import { encodeFunctionData, erc20Abi, getAddress, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { type BuiltWithdrawal, withdrawalMismatch } from '../../web/src/safe-withdrawal.ts';

const safe = getAddress('0x1111111111111111111111111111111111111111');
const usdc = getAddress('0x2222222222222222222222222222222222222222');
const owner = getAddress('0x3333333333333333333333333333333333333333');
const other = getAddress('0x4444444444444444444444444444444444444444');
const asked = { chainId: 8453, safe, usdc, to: owner, amount: 12_500_000n };

function built(change: Record<string, string | number> = {}, outer: Partial<BuiltWithdrawal> = {}): BuiltWithdrawal {
  return {
    safe,
    typedData: {
      domain: { chainId: 8453, verifyingContract: safe },
      message: {
        to: usdc,
        value: '0',
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [owner, 12_500_000n] }),
        operation: 0,
        safeTxGas: '0',
        baseGas: '0',
        gasPrice: '0',
        gasToken: zeroAddress,
        refundReceiver: zeroAddress,
        nonce: '3',
        ...change,
      },
    },
    ...outer,
  };
}

describe('withdrawalMismatch', () => {
  it('lets the asked transfer be signed, addresses in any case', () => {
    expect(withdrawalMismatch(built(), asked)).toBeUndefined();
    expect(withdrawalMismatch(built({ to: usdc.toLowerCase() }), asked)).toBeUndefined();
  });

  it.each([
    [
      'another recipient',
      built({ data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [other, 12_500_000n] }) }),
      'it pays another address than your wallet',
    ],
    [
      'another amount',
      built({ data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [owner, 12_500_001n] }) }),
      'it moves 12.500001 USDC, not 12.5 USDC',
    ],
    [
      'an approval',
      built({ data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [owner, 12_500_000n] }) }),
      'it is not a transfer',
    ],
    ['not a token call', built({ data: '0xdeadbeef' }), 'it is not a token transfer'],
    ['another token', built({ to: other }), 'it does not call USDC'],
    ['a delegate call', built({ operation: 1 }), 'it is a delegate call'],
    ['ether', built({ value: '1' }), 'it sends ether'],
    ['a refund', built({ gasPrice: '1' }), 'it pays a refund out of the Safe'],
    ['another Safe', built({}, { safe: other }), "it is not for the company's Safe"],
    [
      'another Safe in the domain',
      built({}, { typedData: { ...built().typedData, domain: { chainId: 8453, verifyingContract: other } } }),
      "it is not for the company's Safe",
    ],
    [
      'another chain',
      built({}, { typedData: { ...built().typedData, domain: { chainId: 1, verifyingContract: safe } } }),
      'it is for another chain',
    ],
    ['an address that does not parse', built({ to: '0x1234' }), 'it is not a transaction the app can read'],
  ])('names %s in a sentence, for the page to refuse it unsigned', (_what, transaction, problem) => {
    expect(withdrawalMismatch(transaction, asked)).toBe(
      `The withdrawal the service built is not the one you asked for (${problem}): nothing was signed. Try again, or tell the platform.`,
    );
  });
});
