// An agent (`/agents/{id}`): who it is (its ERC-8004 identity), its wallet's balances in units, its positions at
// average cost, its realised PnL over time (from its indexed trades) and its on-chain actions, each linked to the
// decision that ordered it.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { formatUnits } from 'viem';
import { api, data } from '../api';
import { AgentAvatar, agentBio } from '../avatars';
import { ChainTime, ServiceTime } from '../chain-time';
import { Positions, Signed } from '../portfolio';
import { Sparkline } from '../spark';
import { usePlatformUnits } from '../symbols';
import { Empty, HashText, money, Page, Query, TxLink } from '../ui';
import { useChainInfo } from '../wallet';

const route = getRouteApi('/agents/$id');

export default function Agent() {
  const { id } = route.useParams();
  const agent = useQuery({
    queryKey: ['agent', id],
    queryFn: () => data(api.GET('/api/agents/{id}', { params: { path: { id } } })),
  });
  return (
    <Query query={agent} what="the agent" skeleton="page">
      {(a) => (
        <Page title={a.role && !a.name.includes(a.role) ? `${a.role} ${a.name}` : a.name}>
          <p className="lead">
            {a.role ? `The ${a.role} of ` : 'An agent of '}
            {a.company ? (
              <Link to="/companies/$id" params={{ id: a.company.slug }}>
                {a.company.name}
              </Link>
            ) : (
              'no company'
            )}
            . <span className={`badge ${a.status.toLowerCase()}`}>{a.status}</span>
          </p>
          <div className="profile">
            <AgentAvatar id={a.id} name={a.name} size={64} />
            <Bio agent={a} />
          </div>
          <Identity agent={a} />
          <Wallet id={a.id} />
          <Pnl address={a.walletAddress} />
          <Actions id={a.id} address={a.walletAddress} />
        </Page>
      )}
    </Query>
  );
}

/** The agent's bio: what it stored, else one drawn from its role and its company's directive. */
function Bio({
  agent,
}: {
  agent: Parameters<typeof agentBio>[0] & { company: { slug: string; name: string } | null };
}) {
  const slug = agent.company?.slug;
  // The company page's own query: its directive, when the agent has no bio of its own.
  const company = useQuery({
    queryKey: ['company', slug],
    enabled: !!slug && !agent.description?.trim(),
    queryFn: () => data(api.GET('/api/companies/{id}', { params: { path: { id: slug! } } })),
  });
  const directive = company.data ? (company.data.ceoPrompt ?? company.data.masterDirective) : null;
  return (
    <p className="bio" data-testid="agent-bio">
      {agentBio({ ...agent, directive })}
    </p>
  );
}

type AgentView = {
  id: string;
  walletAddress: string | null;
  identity: { erc8004TokenId: string; trustRegistryAddress: string | null } | null;
  strategy: { preset?: string } | Record<string, unknown>;
  metrics: { decisionsExecuted: number; llmCallsTotal: number; toolCallsTotal: number; lastActiveAt: string | null };
};

function Identity({ agent }: { agent: AgentView }) {
  const info = useChainInfo();
  return (
    <section aria-labelledby="identity-h" className="panel">
      <h2 id="identity-h">Identity</h2>
      <dl className="facts">
        <dt>ERC-8004 identity</dt>
        <dd>
          {agent.identity ? (
            <>
              Agent #{agent.identity.erc8004TokenId} in the identity registry{' '}
              {agent.identity.trustRegistryAddress && (
                <HashText value={agent.identity.trustRegistryAddress} label="registry address" />
              )}{' '}
              on chain {info.chainId}
            </>
          ) : (
            'Not registered yet: the creator deploys the C-suite.'
          )}
        </dd>
        <dt>Wallet</dt>
        <dd>{agent.walletAddress ? <HashText value={agent.walletAddress} label="wallet address" /> : 'None yet'}</dd>
        <dt>Decisions executed</dt>
        <dd>{agent.metrics.decisionsExecuted.toLocaleString()}</dd>
        <dt>Last active</dt>
        <dd>{agent.metrics.lastActiveAt ? <ServiceTime at={agent.metrics.lastActiveAt} /> : 'never'}</dd>
      </dl>
      <p className="muted">
        The registration file the identity points to, for machines:{' '}
        <a href={`/api/agents/${encodeURIComponent(agent.id)}/registration.json`}>registration.json</a>
      </p>
    </section>
  );
}

function Wallet({ id }: { id: string }) {
  const units = usePlatformUnits();
  const portfolio = useQuery({
    queryKey: ['agent', id, 'portfolio'],
    queryFn: () => data(api.GET('/api/agents/{id}/portfolio', { params: { path: { id } } })),
  });
  return (
    <section aria-labelledby="wallet-h" className="panel">
      <h2 id="wallet-h">Wallet</h2>
      <Query query={portfolio} what="the wallet">
        {(p) => (
          <>
            {p.balances ? (
              <dl className="facts" data-testid="agent-balances">
                <dt>USDC</dt>
                <dd>{money(p.balances.usdc)} USDC</dd>
                <dt>{units.primary.symbol}</dt>
                <dd>
                  {money(p.balances.primary)} {units.primary.symbol}, {money(p.balances.staked)} staked
                </dd>
                <dt>{units.emission.symbol}</dt>
                <dd>
                  {money(p.balances.emission)} {units.emission.symbol}, {money(p.balances.pendingEmission)} to harvest
                </dd>
                <dt>Gas</dt>
                <dd>{money(formatUnits(BigInt(p.balances.nativeWei), 18), 6)} ETH (kept topped up by the platform)</dd>
              </dl>
            ) : (
              <Empty>No wallet yet.</Empty>
            )}
            <Positions positions={p.positions} />
            <p>
              Worth {money(p.totals.exitValueUsdc)} USDC if its tokens were sold now ({money(p.totals.valueUsdc)} USDC
              at their prices) · realised PnL <Signed value={p.totals.realizedPnlUsdc} /> USDC · unrealised PnL if sold
              now <Signed value={p.totals.exitUnrealizedPnlUsdc} /> USDC (at the prices{' '}
              <Signed value={p.totals.unrealizedPnlUsdc} />)
            </p>
          </>
        )}
      </Query>
    </section>
  );
}

function Pnl({ address }: { address: string | null }) {
  const trades = useQuery({
    queryKey: ['wallet-trades', address],
    enabled: !!address,
    queryFn: () =>
      data(api.GET('/api/wallets/{wallet}/trades', { params: { path: { wallet: address! }, query: { limit: 200 } } })),
  });
  return (
    <section aria-labelledby="pnl-h" className="panel">
      <h2 id="pnl-h">PnL over time</h2>
      {!address ? (
        <Empty>No wallet yet.</Empty>
      ) : (
        <Query query={trades} what="the trades">
          {(d) => {
            if (d.trades.length === 0) return <Empty>No trade yet.</Empty>;
            const points = [...d.trades]
              .reverse()
              .map((t) => ({ time: Date.parse(t.time), value: Number(t.cumulativeRealizedPnlUsdc) }));
            const last = d.trades[0]!;
            return (
              <figure>
                <Sparkline
                  points={points}
                  label={`Realised PnL after each of ${points.length} trades, now ${money(last.cumulativeRealizedPnlUsdc)} USDC`}
                />
                <figcaption>
                  Realised PnL after each trade, in USDC: <Signed value={last.cumulativeRealizedPnlUsdc} /> now. Last
                  trade <ChainTime at={last.time} />.
                </figcaption>
              </figure>
            );
          }}
        </Query>
      )}
    </section>
  );
}

const TOOL: Record<string, string> = {
  buy_token: 'Bought a company token',
  sell_token: 'Sold a company token',
  stake_primary: 'Staked the primary token',
  unstake_primary: 'Unstaked the primary token',
  harvest_emission: 'Harvested the emission',
};

const STATUS: Record<string, string> = {
  SENT: 'sent',
  MINED: 'mined',
  REVERTED: 'reverted on-chain',
  FAILED: 'failed before signing',
};

/** "Bought CLK", "Sold CLK": a trade's action names its token (from the wallet's indexed trade in the same transaction). */
const TRADED: Record<string, string> = { buy_token: 'Bought', sell_token: 'Sold' };

function Actions({ id, address }: { id: string; address: string | null }) {
  const info = useChainInfo();
  const actions = useQuery({
    queryKey: ['agent', id, 'actions'],
    queryFn: () => data(api.GET('/api/agents/{id}/actions', { params: { path: { id } } })),
  });
  // The same query the PnL reads: one request for both.
  const trades = useQuery({
    queryKey: ['wallet-trades', address],
    enabled: !!address,
    queryFn: () =>
      data(api.GET('/api/wallets/{wallet}/trades', { params: { path: { wallet: address! }, query: { limit: 200 } } })),
  });
  const symbolOf = new Map((trades.data?.trades ?? []).map((t) => [t.txHash.toLowerCase(), t.company.symbol]));
  const headline = (a: { tool: string; txHash: string | null }) => {
    const symbol = a.txHash ? symbolOf.get(a.txHash.toLowerCase()) : undefined;
    if (symbol && TRADED[a.tool]) return `${TRADED[a.tool]} ${symbol}`;
    return TOOL[a.tool] ?? a.tool.replace(/_/g, ' ');
  };
  return (
    <section aria-labelledby="agent-actions-h" className="panel">
      <h2 id="agent-actions-h">On-chain actions</h2>
      <Query query={actions} what="the actions" skeleton="table">
        {(list) =>
          list.length === 0 ? (
            <Empty>No on-chain action yet.</Empty>
          ) : (
            <ul className="actions-list">
              {list.map((a) => (
                <li key={`${a.createdAt}-${a.txHash}`} data-outcome={a.status === 'MINED' ? 'done' : 'failed'}>
                  <p>
                    {headline(a)}
                    {Number(a.notionalUsdc) > 0 && ` for ${money(a.notionalUsdc)} USDC`} ·{' '}
                    {STATUS[a.status] ?? a.status} · <ServiceTime at={a.createdAt} />
                    {a.txHash && (
                      <>
                        {' '}
                        · <TxLink hash={a.txHash} explorer={info.explorerUrl} />
                      </>
                    )}
                    {a.roundId && (
                      <>
                        {' '}
                        ·{' '}
                        <Link to="/decisions/$id" params={{ id: a.roundId }}>
                          the decision
                        </Link>
                      </>
                    )}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </Query>
    </section>
  );
}
