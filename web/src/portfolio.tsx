// A wallet's positions in company tokens at average cost, their value at the price and their exit value (what selling
// the whole position would return), and signed PnL figures: the agent and company pages.
import { Link } from '@tanstack/react-router';
import { formatUnits, parseUnits } from 'viem';
import { Empty, money, TableWrap } from './ui';

export function Signed({ value }: { value: string }) {
  const n = Number(value);
  return <span className={n > 0 ? 'up' : n < 0 ? 'down' : undefined}>{`${n > 0 ? '+' : ''}${money(value)}`}</span>;
}

export type Position = {
  token: string;
  symbol: string | null;
  companyId: string;
  balance: string;
  averageCostUsdc: string;
  valueUsdc: string;
  exitValueUsdc: string | null;
  realizedPnlUsdc: string;
  unrealizedPnlUsdc: string;
  exitUnrealizedPnlUsdc: string | null;
};

export function Positions({ positions }: { positions: Position[] }) {
  if (positions.length === 0) return <Empty>No position in a company token.</Empty>;
  return (
    <TableWrap label="Positions">
      <table>
        <caption>
          Positions in company tokens, at average cost; the exit value is what selling the whole position now would
          return (price impact and fees included), and the PnL counts from it
        </caption>
        <thead>
          <tr>
            <th scope="col">Token</th>
            <th scope="col" className="num">
              Held
            </th>
            <th scope="col" className="num">
              Avg cost
            </th>
            <th scope="col" className="num">
              Value at the price
            </th>
            <th scope="col" className="num">
              Exit value
            </th>
            <th scope="col" className="num">
              PnL if sold now
            </th>
          </tr>
        </thead>
        <tbody>
          {positions.map((p) => (
            <tr key={p.token}>
              <td>
                <Link to="/companies/$id/token" params={{ id: p.companyId }}>
                  {p.symbol ? `$${p.symbol}` : p.token.slice(0, 8)}
                </Link>
              </td>
              <td className="num">{money(p.balance)}</td>
              <td className="num">{money(p.averageCostUsdc, 6)} USDC</td>
              <td className="num">{money(p.valueUsdc)} USDC</td>
              <td className="num" data-col="exit">
                {p.exitValueUsdc === null ? '—' : `${money(p.exitValueUsdc)} USDC`}
              </td>
              <td className="num">
                <Signed
                  value={formatUnits(
                    parseUnits(p.realizedPnlUsdc, 6) + parseUnits(p.exitUnrealizedPnlUsdc ?? p.unrealizedPnlUsdc, 6),
                    6,
                  )}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
