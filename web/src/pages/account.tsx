// The connected wallet's account (`/account`, one click from the wallet menu): its access cards, each with its
// company or "unused: create a company"; the companies it created; its stake with the emission waiting; the epoch
// rewards its companies can claim; its recent trades.
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Address } from 'viem';
import { api, data } from '../api';
import { ChainTime } from '../chain-time';
import { amountOf, companyStatus } from '../format';
import { usePlatformUnits } from '../symbols';
import { Empty, HashText, money, Page, Query, TableWrap, TxLink } from '../ui';
import { useChainInfo, useSigner } from '../wallet';
import { useWalletCards, type WalletCard } from '../wallet-companies';

export default function Account() {
  const signer = useSigner();
  return (
    <Page title="Your account">
      {!signer ? (
        <Empty>Connect a wallet (the button at the top) to see its cards, companies, stake, rewards and trades.</Empty>
      ) : (
        <>
          <p className="lead">
            What the wallet <HashText value={signer.address} label="wallet address" /> holds and did on the platform.
          </p>
          <Cards wallet={signer.address} />
          <Created wallet={signer.address} />
          <Stake wallet={signer.address} />
          <Trades wallet={signer.address} />
        </>
      )}
    </Page>
  );
}

function Cards({ wallet }: { wallet: Address }) {
  const cards = useWalletCards(wallet);
  return (
    <>
      <section aria-labelledby="cards-h" className="panel">
        <h2 id="cards-h">Access cards</h2>
        <Query query={cards} what="the cards">
          {(list) =>
            list.length === 0 ? (
              <Empty>
                No card yet: <Link to="/mint">mint one</Link> to create a company.
              </Empty>
            ) : (
              <ul data-testid="account-cards">
                {list.map((c) => (
                  <li key={c.cardTokenId} data-card={c.cardTokenId}>
                    <Link to="/cards/$id" params={{ id: String(c.cardTokenId) }}>
                      Card #{c.cardTokenId}
                    </Link>
                    {' · '}
                    {c.company ? (
                      <>
                        bound to{' '}
                        <Link to="/companies/$id" params={{ id: c.company.slug }}>
                          {c.company.name}
                        </Link>
                      </>
                    ) : (
                      <>
                        unused: <Link to="/create">create a company</Link>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </Query>
      </section>
      <Rewards cards={cards.data ?? []} />
    </>
  );
}

function Created({ wallet }: { wallet: Address }) {
  const created = useQuery({
    queryKey: ['wallet', wallet, 'companies'],
    queryFn: () => data(api.GET('/api/wallets/{wallet}/companies', { params: { path: { wallet } } })),
  });
  return (
    <section aria-labelledby="created-h" className="panel">
      <h2 id="created-h">Companies you created</h2>
      <Query query={created} what="the companies">
        {(list) =>
          list.length === 0 ? (
            <Empty>None yet.</Empty>
          ) : (
            <ul data-testid="account-companies">
              {list.map((c) => (
                <li key={c.id}>
                  <Link to="/companies/$id" params={{ id: c.slug }}>
                    {c.name}
                  </Link>{' '}
                  · {companyStatus(c.status)} · {c.league === 'HUMAN' ? 'human' : 'machine'} league
                  {c.tokenSymbol ? ` · $${c.tokenSymbol}` : ' · no token yet'}
                </li>
              ))}
            </ul>
          )
        }
      </Query>
    </section>
  );
}

function Stake({ wallet }: { wallet: Address }) {
  const units = usePlatformUnits();
  const position = useQuery({
    queryKey: ['staking', wallet],
    queryFn: () => data(api.GET('/api/staking/position/{wallet}', { params: { path: { wallet } } })),
  });
  return (
    <section aria-labelledby="stake-h" className="panel">
      <h2 id="stake-h">Stake</h2>
      <Query query={position} what="the stake">
        {(p) =>
          BigInt(p.stakedPrimary) === 0n && BigInt(p.pendingEmission) === 0n ? (
            <Empty>
              Nothing staked. <Link to="/staking">Stake {units.primary.symbol}</Link> to earn {units.emission.symbol}.
            </Empty>
          ) : (
            <p data-testid="account-stake">
              {amountOf(BigInt(p.stakedPrimary), units.primary, 2)} staked
              {p.tier !== 'NONE' ? ` with a ${p.tier} card's boost (x${p.multiplier})` : ''} ·{' '}
              {amountOf(BigInt(p.pendingEmission), units.emission, 4)} to harvest · APY{' '}
              {p.effectiveApy.toLocaleString(undefined, { maximumFractionDigits: 2 })}% ·{' '}
              <Link to="/staking">Manage the stake</Link>
            </p>
          )
        }
      </Query>
    </section>
  );
}

/** The epoch rewards of the companies bound to the wallet's cards (a card's holder claims its company's). */
function Rewards({ cards }: { cards: WalletCard[] }) {
  const units = usePlatformUnits();
  const companies = cards.flatMap((c) => (c.company ? [c.company] : []));
  const claimable = useQueries({
    queries: companies.map((c) => ({
      queryKey: ['epoch', 'claimable', c.id],
      queryFn: () => data(api.GET('/api/epochs/claimable/{companyId}', { params: { path: { companyId: c.id } } })),
    })),
  });
  return (
    <section aria-labelledby="rewards-h" className="panel">
      <h2 id="rewards-h">Rewards to claim</h2>
      {companies.length === 0 ? (
        <Empty>Rewards go to companies: a card bound to a company earns its epoch rewards.</Empty>
      ) : (
        <ul data-testid="account-rewards">
          {companies.map((c, i) => {
            const q = claimable[i]!;
            const claimed = q.data?.claimable.filter((e) => e.alreadyClaimed).length ?? 0;
            return (
              <li key={c.id}>
                {c.name}:{' '}
                {q.isPending
                  ? 'reading…'
                  : q.isError
                    ? 'could not be read'
                    : BigInt(q.data.totalClaimable) > 0n
                      ? `${amountOf(BigInt(q.data.totalClaimable), units.primary, 2)} to claim`
                      : 'nothing to claim'}
                {claimed > 0 && ` (${claimed} epoch${claimed === 1 ? '' : 's'} claimed)`} ·{' '}
                <Link to="/rewards" search={{ company: c.id }}>
                  Its rewards
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function Trades({ wallet }: { wallet: Address }) {
  const info = useChainInfo();
  const trades = useQuery({
    queryKey: ['wallet-trades', wallet],
    queryFn: () =>
      data(api.GET('/api/wallets/{wallet}/trades', { params: { path: { wallet }, query: { limit: 20 } } })),
  });
  return (
    <section aria-labelledby="trades-h" className="panel">
      <h2 id="trades-h">Recent trades</h2>
      <Query query={trades} what="the trades" skeleton="table">
        {(d) =>
          d.trades.length === 0 ? (
            <Empty>No trade yet.</Empty>
          ) : (
            <TableWrap label="Recent trades">
              <table>
                <caption>
                  {d.trades.length === 1
                    ? "The wallet's one trade of a company token"
                    : `The wallet's last ${d.trades.length} trades of company tokens`}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Trade</th>
                    <th scope="col" className="num">
                      USDC
                    </th>
                    <th scope="col">Transaction</th>
                  </tr>
                </thead>
                <tbody>
                  {d.trades.map((t) => (
                    <tr key={`${t.txHash}-${t.logIndex}`} data-trade={t.txHash}>
                      <td>
                        <ChainTime at={t.time} />
                      </td>
                      <td>
                        {t.side === 'buy' ? 'Bought' : 'Sold'} {money(t.tokenAmount)}{' '}
                        <Link to="/companies/$id/token" params={{ id: t.company.slug }}>
                          ${t.company.symbol ?? t.company.name}
                        </Link>
                      </td>
                      <td className="num">{money(t.usdcAmount)}</td>
                      <td>
                        <TxLink hash={t.txHash} explorer={info.explorerUrl} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )
        }
      </Query>
    </section>
  );
}
