// Rewards: a company's epoch rewards, claimable or claimed, and the creator's claim (signed; the reward mints to
// the treasury recorded at finalization). The company is picked from the Fortune List or named by its slug.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { formatUnits } from 'viem';
import { api, data, humanError, signedRequest } from '../api';
import { Empty, money, Page, Query } from '../ui';
import { useSigner } from '../wallet';

const route = getRouteApi('/rewards');

export default function Rewards() {
  const companyId = route.useSearch().company ?? '';
  const navigate = route.useNavigate();
  const signer = useSigner();
  const queries = useQueryClient();
  const [message, setMessage] = useState<string | undefined>();
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
        r.alreadyClaimed
          ? 'Already claimed.'
          : `Claimed ${money(formatUnits(BigInt(r.amount), 18))} primary tokens to the treasury.`,
      );
      await queries.invalidateQueries({ queryKey: ['epoch', 'claimable', companyId] });
    } catch (err) {
      setMessage(humanError(err));
    } finally {
      setBusy(undefined);
    }
  }
  return (
    <Page title="Rewards">
      <label>
        Company{' '}
        <select
          value={companyId}
          onChange={(e) => void navigate({ search: { company: e.target.value || undefined }, replace: true })}
        >
          <option value="">Choose a company</option>
          {list.data?.companies.map((e) => (
            <option key={e.company.id} value={e.company.id}>
              {e.company.name}
            </option>
          ))}
        </select>
      </label>
      {companyId === '' ? (
        <Empty>Choose a company to see its rewards.</Empty>
      ) : (
        <Query query={rewards} what="the rewards">
          {(r) =>
            r.claimable.length === 0 ? (
              <Empty>
                {'reason' in r && r.reason === 'no_treasury_address'
                  ? 'This company has no treasury address: set one to receive rewards.'
                  : 'No finalized epoch holds a reward for this company yet.'}
              </Empty>
            ) : (
              <div className="table-wrap">
                <table>
                  <caption>
                    {`Rewards mint to ${'treasuryAddress' in r && r.treasuryAddress ? r.treasuryAddress : 'the treasury'}.`}{' '}
                    Total claimable {money(formatUnits(BigInt(r.totalClaimable), 18))} primary tokens.
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
                        <td className="num">{money(formatUnits(BigInt(c.amount), 18))}</td>
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
              </div>
            )
          }
        </Query>
      )}
      {message && <output className="notice">{message}</output>}
    </Page>
  );
}
