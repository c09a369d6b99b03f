// The dev accounts (src/chain/client.ts) derive anvil's default mnemonic's seed once a process; they must be the
// accounts viem's own derivation gives, the ones anvil funds.
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ANVIL_MNEMONIC } from '../../src/chain/anvil.ts';
import { devAccount, devAddresses } from '../../src/chain/client.ts';

describe('devAccount', () => {
  it('is account `index` of the mnemonic, as viem derives it', () => {
    expect(devAccount(0).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    for (const index of [0, 1, 9, 10, 31]) {
      const expected = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
      expect(devAccount(index).address).toBe(expected.address);
      expect(devAccount(index).getHdKey().privateKey).toEqual(expected.getHdKey().privateKey);
    }
    expect(devAddresses(3)).toEqual([0, 1, 2].map((i) => devAccount(i).address));
  });

  it('signs as the derived key does', async () => {
    const expected = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 4 });
    expect(await devAccount(4).signMessage({ message: 'dev' })).toBe(await expected.signMessage({ message: 'dev' }));
  });
});
