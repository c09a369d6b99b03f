// The connected wallet's position in a token: what it holds (on-chain), its average cost (from its indexed trades,
// GET /api/companies/{id}/token/position/{wallet}), what that is worth at the current price (the mark value) and what
// selling all of it now would return (the exit value: the launcher's quoteSell of the balance, its price impact and
// fees included), and the unrealised PnL counted from the exit value, the one the wallet can have. Tokens that came
// by transfer have no cost: the PnL covers the bought ones only.

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { useQuery } from '@tanstack/react-query';
import { type Address, erc20Abi, parseUnits } from 'viem';
import { usePublicClient, useReadContract } from 'wagmi';
import { api, data } from '../api';
import { amountOf, formatNumber, type Unit, USDC } from '../format';
import { Query } from '../ui';

const WAD = 10n ** 18n;

export function PositionPanel({
  companyId,
  token,
  wallet,
  price,
  launcher,
}: {
  companyId: string;
  /** The token launcher, whose quoteSell gives the exit value. */
  launcher: Address;
  token: { address: Address; unit: Unit };
  wallet: Address;
  /** The current price, USDC per whole token (decimal string). */
  price: string;
}) {
  const held = useReadContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });
  const position = useQuery({
    queryKey: ['position', companyId, wallet],
    queryFn: () =>
      data(api.GET('/api/companies/{id}/token/position/{wallet}', { params: { path: { id: companyId, wallet } } })),
  });
  const client = usePublicClient();
  const balance = held.data;
  // Under 'quote': read again on each trade of the token (live.tsx), as the trade form's quote is.
  const exit = useQuery({
    queryKey: ['quote', token.address, 'exit', wallet, balance?.toString()],
    enabled: !!client && balance !== undefined,
    queryFn: async () =>
      balance === 0n
        ? 0n
        : ((await client!.readContract({
            address: launcher,
            abi: TokenLauncherAbi,
            functionName: 'quoteSell',
            args: [token.address, balance!],
          })) as bigint),
    retry: false,
  });
  return (
    <section className="panel" aria-labelledby="position-h">
      <h2 id="position-h">Your position</h2>
      <Query query={position} what="your position">
        {(p) => {
          const quantity = parseUnits(p.quantity, 18);
          const cost = parseUnits(p.costUsdc, 6);
          const spot = parseUnits(price, 6);
          // The bought tokens still held: what the cost basis covers.
          const covered = balance === undefined ? 0n : balance < quantity ? balance : quantity;
          const coveredCost = quantity === 0n ? 0n : (cost * covered) / quantity;
          const value = balance === undefined ? undefined : (balance * spot) / WAD;
          const unrealizedAtMark = (covered * spot) / WAD - coveredCost;
          // The exit value covers the whole balance; the cost basis its bought part, in proportion.
          const exitValue = exit.data;
          const unrealized =
            exitValue === undefined || balance === undefined
              ? undefined
              : balance === 0n
                ? 0n
                : (exitValue * covered) / balance - coveredCost;
          const impact =
            exitValue !== undefined && value !== undefined && value > 0n
              ? Number(((value - exitValue) * 10_000n) / value) / 100
              : undefined;
          return (
            <dl className="facts">
              <dt>Held</dt>
              <dd data-testid="held">{balance === undefined ? '…' : amountOf(balance, token.unit)}</dd>
              <dt>Average cost</dt>
              <dd>
                {quantity === 0n
                  ? '—'
                  : `${amountOf(parseUnits(p.averageCostUsdc, 6), USDC, 8)} per ${token.unit.symbol}`}
              </dd>
              <dt>Value at the current price</dt>
              <dd data-testid="mark-value">{value === undefined ? '…' : amountOf(value, USDC, 2)}</dd>
              <dt>Exit value (selling it all now)</dt>
              <dd data-testid="exit-value" data-exit={exitValue?.toString()}>
                {exit.isError
                  ? 'cannot be quoted right now'
                  : exitValue === undefined
                    ? '…'
                    : `${amountOf(exitValue, USDC, 2)}${impact !== undefined && impact > 0 ? ` (${formatNumber(impact, 1)}% below the value at the price: fees and price impact)` : ''}`}
              </dd>
              <dt>Unrealised PnL if sold now</dt>
              <dd
                data-testid="unrealized"
                className={
                  unrealized === undefined ? undefined : unrealized < 0n ? 'down' : unrealized > 0n ? 'up' : undefined
                }
              >
                {quantity === 0n
                  ? '—'
                  : unrealized === undefined
                    ? '…'
                    : `${unrealized > 0n ? '+' : ''}${amountOf(unrealized, USDC, 2)}`}
              </dd>
              <dt>Unrealised PnL at the price</dt>
              <dd data-testid="unrealized-mark">
                {quantity === 0n ? '—' : `${unrealizedAtMark > 0n ? '+' : ''}${amountOf(unrealizedAtMark, USDC, 2)}`}
              </dd>
              <dt>Realised PnL</dt>
              <dd>{amountOf(parseUnits(p.realizedPnlUsdc, 6), USDC, 2)}</dd>
            </dl>
          );
        }}
      </Query>
    </section>
  );
}
