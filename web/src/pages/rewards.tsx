// Rewards: a company's epoch rewards, claimable or claimed, and the claim by its card's holder (signed; the reward
// mints to the treasury recorded at finalization). The connected wallet's own companies are listed first, whether or
// not the last snapshot ranked them; any company of the Fortune List can be picked too.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, data, signedRequest } from '../api';
import { Notice, type Said, said } from '../errors';
import { amountOf } from '../format';
import { platformTokensInWords, usePlatformUnits } from '../symbols';
import { Empty, Page, Query, TableWrap } from '../ui';
import { useSigner } from '../wallet';
import { useWalletCompanies } from '../wallet-companies';

const route = getRouteApi('/rewards');

export default function Rewards() {
  const companyId = route.useSearch().company ?? '';
  const navigate = route.useNavigate();
  const signer = useSigner();
  const units = usePlatformUnits();
  const mine = useWalletCompanies(signer?.address);
  const queries = useQueryClient();
  const [message, setMessage] = useState<string | Said | undefined>();
  const [busy, setBusy] = useState<number | undefined>();
  const list = useQuery({
    queryKey: ['fortune', 'all'],
    queryFn: () => data(api.GET('/api/fortune-list', { params: { query: { limit: 100 } } })),
  });
  const rewards = useQuery({
    queryKey: ['epoch', 'claimable', companyId],
    enabled: companyId !== '',
    queryFn: () => data(api.GET('/api/epochs/claimable/{companyId}', { params: { path: { companyId } } })),
  });
  // The wallet's companies first, then the Fortune List's, each once.
  const choices = [...(mine.data ?? []), ...(list.data?.companies.map((e) => e.company) ?? [])].filter(
    (c, i, all) => all.findIndex((x) => x.id === c.id) === i,
  );
  async function claim(epochNumber: number) {
    if (!signer || !rewards.data) return;
    setBusy(epochNumber);
    setMessage(undefined);
    try {
      const r = await signedRequest<{ txHash: string | null; amount: string; alreadyClaimed: boolean }>(
        signer,
        'POST',
        '/api/epochs/claim',
        {
          companyId: rewards.data.companyId,
          epochNumber,
        },
      );
      setMessage(
        r.alreadyClaimed ? 'Already claimed.' : `Claimed ${amountOf(BigInt(r.amount), units.primary)} to the treasury.`,
      );
      await queries.invalidateQueries({ queryKey: ['epoch', 'claimable', companyId] });
    } catch (err) {
      setMessage(said(err, 'claim'));
    } finally {
      setBusy(undefined);
    }
  }
  return (
    <Page title="Rewards">
      <p className="muted" data-testid="platform-tokens">
        {platformTokensInWords(units)} Rewards are claimed to the company's treasury: a company with no treasury set
        cannot receive them.
      </p>
      {signer && (
        <section className="panel" aria-labelledby="mine-h">
          <h2 id="mine-h">Your companies</h2>
          {mine.isPending ? (
            <p className="muted">Reading your cards…</p>
          ) : (mine.data ?? []).length === 0 ? (
            <Empty>This wallet holds no card bound to a company.</Empty>
          ) : (
            <ul className="companies">
              {mine.data!.map((c) => (
                <li key={c.id}>
                  <Link to="/rewards" search={{ company: c.id }} aria-current={c.id === companyId ? 'true' : undefined}>
                    {c.name}
                  </Link>{' '}
                  <span className="muted">(card #{c.cardTokenId})</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <label>
        Company{' '}
        <select
          value={companyId}
          onChange={(e) => void navigate({ search: { company: e.target.value || undefined }, replace: true })}
        >
          <option value="">Choose a company</option>
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      {companyId === '' ? (
        <Empty>Choose a company to see its rewards.</Empty>
      ) : (
        <Query query={rewards} what="the rewards" skeleton="table">
          {(r) =>
            r.claimable.length === 0 ? (
              <Empty>
                {'reason' in r && r.reason === 'no_treasury_address'
                  ? 'This company has no treasury address: set one to receive rewards.'
                  : 'No finalized epoch holds a reward for this company yet.'}
              </Empty>
            ) : (
              <TableWrap label="Epoch rewards">
                <table>
                  <caption>
                    {`Rewards mint to ${'treasuryAddress' in r && r.treasuryAddress ? r.treasuryAddress : 'the treasury'}.`}{' '}
                    Total claimable {amountOf(BigInt(r.totalClaimable), units.primary)}.
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Epoch</th>
                      <th scope="col" className="num">
                        Reward
                      </th>
                      <th scope="col">State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.claimable.map((c) => (
                      <tr key={c.epochNumber} data-epoch={c.epochNumber}>
                        <td>{c.epochNumber}</td>
                        <td className="num">{amountOf(BigInt(c.amount), units.primary)}</td>
                        <td>
                          {c.alreadyClaimed ? (
                            'Claimed'
                          ) : (
                            <button
                              type="button"
                              disabled={!signer || busy !== undefined}
                              onClick={() => void claim(c.epochNumber)}
                            >
                              {busy === c.epochNumber ? 'Claiming…' : signer ? 'Claim' : 'Connect the creator wallet'}
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )
          }
        </Query>
      )}
      <Notice message={message} />
    </Page>
  );
}
