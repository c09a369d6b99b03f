// Reverts decoded with the errors of every contract the platform calls.

import { IdentityRegistryAbi, PoolManagerAbi } from '@ai-economy/shared/abis';
import { PLATFORM_ERRORS } from '@ai-economy/shared/revert';
import { encodeErrorResult, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeRevert } from '../../src/chain/revert.ts';
import { isUnstorableText } from '../../src/text.ts';

describe('decodeRevert', () => {
  it("names a platform contract's custom error with its arguments", () => {
    const data = encodeErrorResult({
      abi: IdentityRegistryAbi,
      errorName: 'IdentityRegistryDeadlineTooFar',
      args: [1795507152n, 1795507452n],
    });
    expect(decodeRevert(data)).toBe('IdentityRegistryDeadlineTooFar(1795507152, 1795507452)');
  });

  it("names the v4 PoolManager's errors too", () => {
    const error = PoolManagerAbi.find((e) => e.type === 'error' && e.inputs.length === 0)!;
    const data = encodeErrorResult({ abi: PoolManagerAbi, errorName: (error as { name: string }).name } as never);
    expect(decodeRevert(data)).toBe(`${(error as { name: string }).name}()`);
  });

  it('reads Error(string) and Panic(uint256), and names an unknown selector', () => {
    const reason = encodeErrorResult({
      abi: parseAbi(['error Error(string)']),
      errorName: 'Error',
      args: ['bad\u0000 thing'],
    });
    const decoded = decodeRevert(reason);
    expect(decoded).toBe('reverted: bad thing');
    expect(isUnstorableText(decoded)).toBe(false);
    const panic = encodeErrorResult({ abi: parseAbi(['error Panic(uint256)']), errorName: 'Panic', args: [0x11n] });
    expect(decodeRevert(panic)).toMatch(/^Panic\(17\)$/);
    expect(decodeRevert('0xdeadbeef00')).toBe('unknown custom error 0xdeadbeef');
  });

  it('knows each error signature once', () => {
    const signatures = PLATFORM_ERRORS.map((e) =>
      e.type === 'error' ? `${e.name}(${e.inputs.map((i) => i.type).join(',')})` : '',
    );
    expect(new Set(signatures).size).toBe(signatures.length);
  });
});
