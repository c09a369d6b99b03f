// Uniswap v4 reads a hook's permissions from the low 14 bits of its address, so the fee hook is deployed through
// the standard CREATE2 deployer (present on anvil and on Base) with a salt found here: the first salt, counting
// from 0, whose CREATE2 address carries exactly the hook's flags. The search is deterministic, so a deployment
// that is run again finds the same address and sees the hook already there.
import { type Address, concat, getAddress, type Hex, keccak256, numberToHex, toBytes } from 'viem';

/** Arachnid's deterministic deployment proxy: calldata is salt (32 bytes) followed by the init code. */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

/** v4-core Hooks.sol flag bits. */
export const HOOK_FLAGS = {
  beforeInitialize: 1n << 13n,
  afterInitialize: 1n << 12n,
  beforeAddLiquidity: 1n << 11n,
  afterAddLiquidity: 1n << 10n,
  beforeRemoveLiquidity: 1n << 9n,
  afterRemoveLiquidity: 1n << 8n,
  beforeSwap: 1n << 7n,
  afterSwap: 1n << 6n,
  beforeDonate: 1n << 5n,
  afterDonate: 1n << 4n,
  beforeSwapReturnDelta: 1n << 3n,
  afterSwapReturnDelta: 1n << 2n,
  afterAddLiquidityReturnDelta: 1n << 1n,
  afterRemoveLiquidityReturnDelta: 1n << 0n,
} as const;
export const ALL_HOOK_FLAGS = (1n << 14n) - 1n;

/** The permissions of PlatformFeeHook (its constructor checks the same set). */
export const FEE_HOOK_FLAGS =
  HOOK_FLAGS.beforeInitialize |
  HOOK_FLAGS.beforeAddLiquidity |
  HOOK_FLAGS.beforeRemoveLiquidity |
  HOOK_FLAGS.afterSwap |
  HOOK_FLAGS.afterSwapReturnDelta;

/**
 * The first salt whose CREATE2 address (from `deployer`, for `initCode`) has exactly `flags` in its low 14 bits.
 * About 16,384 tries on average; each is one keccak over a reused 85-byte buffer.
 */
export function mineHookSalt(
  initCode: Hex,
  flags: bigint,
  deployer: Address = CREATE2_DEPLOYER,
  maxTries = 2_000_000,
): { salt: Hex; address: Address } {
  if ((flags & ~ALL_HOOK_FLAGS) !== 0n) throw new Error(`hook flags ${flags} use bits beyond the 14 hook bits`);
  const buffer = new Uint8Array(85);
  buffer[0] = 0xff;
  buffer.set(toBytes(deployer), 1);
  buffer.set(toBytes(keccak256(initCode)), 53);
  const want = Number(flags);
  for (let i = 0; i < maxTries; i++) {
    // The salt is the counter, big-endian, in bytes 21..52 (only the low 4 bytes change).
    buffer[49] = (i >>> 24) & 0xff;
    buffer[50] = (i >>> 16) & 0xff;
    buffer[51] = (i >>> 8) & 0xff;
    buffer[52] = i & 0xff;
    const hash = keccak256(buffer, 'bytes');
    if ((((hash[30]! << 8) | hash[31]!) & 0x3fff) === want) {
      return {
        salt: numberToHex(i, { size: 32 }),
        address: getAddress(`0x${Buffer.from(hash.slice(12)).toString('hex')}`),
      };
    }
  }
  throw new Error(`no CREATE2 salt below ${maxTries} gives a hook address with flags ${flags}`);
}

/** Calldata for the CREATE2 deployer. */
export function create2Calldata(salt: Hex, initCode: Hex): Hex {
  return concat([salt, initCode]);
}
