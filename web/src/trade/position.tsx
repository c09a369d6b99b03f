// The connected wallet's position in a token: what it holds (on-chain), its average cost (from its indexed trades,
// GET /api/companies/{id}/token/position/{wallet}), what that is worth at the current price and the unrealised PnL.
// Tokens that came by transfer have no cost: the PnL covers the bought ones only.
import { useQuery } from '@tanstack/react-query';
import { type Address, erc20Abi, parseUnits } from 'viem';
import { useReadContract } from 'wagmi';
import { api, data } from '../api';
import { amountOf, type Unit, USDC } from '../format';
import { Query } from '../ui';

const WAD = 10n ** 18n;

export function PositionPanel({
  companyId,
  token,
  wallet,
  price,
}: {
  companyId: string;
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
  return (
    <section className="panel" aria-labelledby="position-h">
      <h2 id="position-h">Your position</h2>
      <Query query={position} what="your position">
        {(p) => {
          const balance = held.data;
          const quantity = parseUnits(p.quantity, 18);
          const cost = parseUnits(p.costUsdc, 6);
          const spot = parseUnits(price, 6);
          // The bought tokens still held: what the cost basis covers.
          const covered = balance === undefined ? 0n : balance < quantity ? balance : quantity;
          const coveredCost = quantity === 0n ? 0n : (cost * covered) / quantity;
          const value = balance === undefined ? undefined : (balance * spot) / WAD;
          const unrealized = (covered * spot) / WAD - coveredCost;
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
              <dd>{value === undefined ? '…' : amountOf(value, USDC, 2)}</dd>
              <dt>Unrealised PnL</dt>
              <dd data-testid="unrealized" className={unrealized < 0n ? 'down' : unrealized > 0n ? 'up' : undefined}>
                {quantity === 0n ? '—' : `${unrealized > 0n ? '+' : ''}${amountOf(unrealized, USDC, 2)}`}
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
