// Creating a company: the card it will be bound to (the signer's lowest-numbered unused card), the company's name,
// category and treasury, signed by the connected wallet; then the C-suite deployed, its agents shown as they
// become active.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { COMPANY_CATEGORIES } from '@ai-economy/shared/constants';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import type { Address } from 'viem';
import { useConnection, useReadContract } from 'wagmi';
import { api, data, signedRequest } from '../api';
import { categoryLabel } from '../categories';
import { FinishSetup, needsFinishing } from '../company-setup';
import { Notice, type Said, said } from '../errors';
import { companyStatus } from '../format';
import { Page } from '../ui';
import { useChainInfo, useSigner } from '../wallet';
import { useWalletCompanies } from '../wallet-companies';

export default function Create() {
  const info = useChainInfo();
  const { address } = useConnection();
  const signer = useSigner();
  const [company, setCompany] = useState<{ id: string; slug: string } | undefined>();
  const [step, setStep] = useState<string | undefined>();
  const [message, setMessage] = useState<string | Said | undefined>();
  const card = useReadContract({
    address: info.contracts.accessCard as Address,
    abi: AccessCardAbi,
    functionName: 'canDeploy',
    args: [address ?? '0x0000000000000000000000000000000000000000'],
    query: { enabled: !!address },
  });
  const team = useQuery({
    queryKey: ['company', company?.id],
    enabled: !!company,
    queryFn: () => data(api.GET('/api/companies/{id}', { params: { path: { id: company!.id } } })),
    refetchInterval: (q) =>
      q.state.data?.agents.every((a) => a.status === 'ACTIVE') && q.state.data.agents.length === 7 ? false : 1_000,
  });
  async function create(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!signer) return;
    const f = new FormData(e.currentTarget);
    setMessage(undefined);
    try {
      setStep('Signing and creating the company');
      const body = {
        name: String(f.get('name')),
        category: String(f.get('category')),
        ...(f.get('description') ? { description: String(f.get('description')) } : {}),
        ...(f.get('treasury') ? { treasuryAddress: String(f.get('treasury')) } : {}),
      };
      const created = await signedRequest<{ id: string; slug: string }>(signer, 'POST', '/api/companies', body);
      setCompany(created);
      setStep('Deploying the C-suite: seven agents get a wallet and an ERC-8004 identity');
      await signedRequest(signer, 'POST', `/api/companies/${created.id}/deploy-suite`);
      setStep(undefined);
    } catch (err) {
      setStep(undefined);
      setMessage(said(err));
    }
  }
  const cardId = card.data === undefined ? undefined : Number(card.data);
  // The wallet's companies whose creation was cut off before their C-suite was deployed: each can be finished here.
  const owned = useWalletCompanies(address);
  const views = useQueries({
    queries: (owned.data ?? []).map((o) => ({
      queryKey: ['company', o.id],
      queryFn: () => data(api.GET('/api/companies/{id}', { params: { path: { id: o.id } } })),
    })),
  });
  const unfinished = views
    .flatMap((v) => (v.data ? [v.data] : []))
    .filter((c) => c.id !== company?.id && needsFinishing(c));
  return (
    <Page title="Create a company">
      {unfinished.length > 0 && (
        <section className="panel" aria-labelledby="unfinished-h">
          <h2 id="unfinished-h">Finish setting up</h2>
          <p>
            {unfinished.length === 1 ? 'A company' : 'Companies'} of yours {unfinished.length === 1 ? 'was' : 'were'}{' '}
            created but not fully set up (the creation was interrupted): finish{' '}
            {unfinished.length === 1 ? 'it' : 'each'} here rather than creating another.
          </p>
          <ul>
            {unfinished.map((c) => (
              <li key={c.id}>
                <Link to="/companies/$id" params={{ id: c.slug }}>
                  {c.name}
                </Link>{' '}
                <FinishSetup id={c.id} name={c.name} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {!address ? (
        <p className="notice">Connect a wallet that holds an access card to create a company.</p>
      ) : cardId === 0 ? (
        <p className="notice">
          This wallet has no unused access card. <Link to="/mint">Mint one first.</Link>
        </p>
      ) : (
        cardId !== undefined && (
          <p className="lead">
            The company will be bound for ever to your card{' '}
            <Link to="/cards/$id" params={{ id: String(cardId) }}>
              #{cardId}
            </Link>
            .
          </p>
        )
      )}
      {!company && (
        <form onSubmit={create} className="panel">
          <label>
            Name
            <input name="name" required minLength={3} maxLength={100} />
          </label>
          <label>
            Category
            <select name="category" defaultValue="AI_TOKENS">
              {COMPANY_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {categoryLabel(c)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Description (optional)
            <textarea name="description" maxLength={2000} rows={3} />
          </label>
          <label>
            Treasury address (needed for rewards: the company's epoch rewards are paid to it; it can be set later)
            <input name="treasury" pattern="^0x[0-9a-fA-F]{40}$" />
          </label>
          <button type="submit" disabled={!signer || !cardId || !!step}>
            {step ? 'Working…' : 'Sign and create'}
          </button>
        </form>
      )}
      {step && <output className="notice">{step}…</output>}
      <Notice message={message} />
      {company && message && team.data && needsFinishing(team.data) && <FinishSetup id={company.id} />}
      {company && team.data && (
        <section className="panel" aria-labelledby="team-h">
          <h2 id="team-h">
            <Link to="/companies/$id" params={{ id: company.slug }}>
              {team.data.name}
            </Link>
            : its agents
          </h2>
          <ul className="agents">
            {team.data.agents.map((a) => (
              <li key={a.id} data-agent-status={a.status}>
                <strong>{a.role}</strong> {a.name} <span className={`badge ${a.status.toLowerCase()}`}>{a.status}</span>
              </li>
            ))}
          </ul>
          <p>
            {team.data.agents.filter((a) => a.status === 'ACTIVE').length} of 7 active ·{' '}
            {companyStatus(team.data.status)}
          </p>
          <output className="notice">
            {team.data.agents.filter((a) => a.status === 'ACTIVE').length === 7
              ? 'The company is staffed: its seven agents are active.'
              : 'Hiring the C-suite: each agent becomes active once its wallet and identity are set up.'}
          </output>
        </section>
      )}
    </Page>
  );
}
