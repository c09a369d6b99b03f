// A contract's refusal said as a sentence: the revert data found in a viem error is decoded with the errors of every
// contract the platform deploys (packages/shared/src/revert.ts), and each error a person can meet while trading,
// minting or staking reads as what happened and what to do, in the units of the token concerned.
import { PLATFORM_ERRORS, revertDataOf } from '@ai-economy/shared/revert';
import { decodeErrorResult } from 'viem';
import { humanError } from './api';
import { amountOf, type Unit, USDC } from './format';

/** What a transaction is about: its name ("buy", "mint") and the token it spends, the one it gets. */
export interface RevertContext {
  action: string;
  spent?: Unit;
  received?: Unit;
}

/** The sentence for a decoded contract error, or undefined for one a person should not meet. */
function sentence(name: string, args: readonly unknown[], ctx: RevertContext): string | undefined {
  const n = (i: number) => args[i] as bigint;
  const spent = (i: number) => (ctx.spent ? amountOf(n(i), ctx.spent) : String(n(i)));
  const received = (i: number) => (ctx.received ? amountOf(n(i), ctx.received) : String(n(i)));
  switch (name) {
    case 'ERC20InsufficientBalance':
    case 'AccessCardInsufficientBalance':
      return `You have ${spent(1)}; this ${ctx.action} needs ${spent(2)}.`;
    case 'ERC20InsufficientAllowance':
      return `The allowance for this ${ctx.action} is ${spent(1)}; it needs ${spent(2)}. Approve it, then try again.`;
    case 'LauncherSlippage':
      return `The price moved: this ${ctx.action} would give ${received(0)}, less than your minimum of ${received(1)}. Try again, or allow more slippage.`;
    case 'LauncherDeadlinePassed':
      return `The deadline passed before the ${ctx.action} could be mined. Try again, or allow more time.`;
    case 'LauncherZeroAmount':
    case 'StakingZeroAmount':
      return 'Enter an amount above zero.';
    case 'LauncherZeroOutput':
      return `This amount is too small: the ${ctx.action} would give nothing back.`;
    case 'LauncherInsufficientReserve':
      return `The curve holds ${amountOf(n(1), USDC)}; this sale would take ${amountOf(n(0), USDC)}. Sell less.`;
    case 'LauncherPermitFailed':
      return `The permit you signed could not be used: another ${ctx.action} from this wallet (perhaps in another tab) used it first, or it expired. Nothing was spent. Try again; your wallet will ask for a new signature.`;
    case 'LauncherUnknownToken':
      return 'The launcher does not trade this token.';
    case 'AccessCardMintInactive':
      return 'Minting is paused.';
    case 'AccessCardTrancheSoldOut':
      return `Tranche ${String(args[0])} is sold out.`;
    case 'AccessCardPriceAboveMax':
      return `The card price is now ${amountOf(n(0), USDC)}, above the ${amountOf(n(1), USDC)} you agreed to. Try again.`;
    case 'AccessCardInvalidQuantity':
      return `You can mint 1 to ${String(args[1])} cards at a time.`;
    case 'StakingInsufficientStake':
      return `You have ${spent(1)} staked; you asked to unstake ${spent(0)}.`;
    case 'StakingCardNotHeld':
      return 'This wallet does not hold that card any more.';
    default:
      return undefined;
  }
}

/** A failure in words, with the contract error it decoded (its name, when there was one) for a caller to act on. */
export interface Explained {
  text: string;
  /** The contract error's name ("LauncherSlippage"), when the failure was a decoded revert. */
  errorName?: string;
}

/** Why a call failed, in words: a decoded contract error, else what the wallet or the node said. */
export function explain(err: unknown, ctx: RevertContext): Explained {
  const data = revertDataOf(err);
  if (data) {
    try {
      const { errorName, args } = decodeErrorResult({ abi: PLATFORM_ERRORS, data });
      if (errorName === 'Error') return { text: `The contract refused the ${ctx.action}: ${String(args?.[0] ?? '')}.` };
      // An error without a sentence of its own: what happened and what to do, its name left to the details.
      return {
        text:
          sentence(errorName, args ?? [], ctx) ??
          `The contract refused the ${ctx.action}, so nothing was done. Check the amounts and try again; if it keeps happening, open the details below and tell us.`,
        errorName,
      };
    } catch {
      return {
        text: `The contract refused the ${ctx.action} for a reason the app cannot read. Try again; if it keeps happening, open the details below and tell us.`,
      };
    }
  }
  return { text: humanError(err, ctx.action) };
}

/** Why a call failed, in words. */
export const explainFailure = (err: unknown, ctx: RevertContext): string => explain(err, ctx).text;
