// What the owner of a company does next, on its page (docs/web.md "Company"): a checklist (finish setting up, fund
// it, launch its token, set its directive, prove its treasury), each step done from the page; and the company's
// money: funding (a USDC transfer from the owner's wallet into the company's Safe, or into its CFO's wallet for a
// company without custody), withdrawal from the Safe (the service builds the Safe transaction, the owner's wallet
// signs and executes it: the service never holds that power), and the move of a company created before custody into
// a Safe of its own.

import { SafeL2Abi } from '@ai-economy/shared/abis';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useState } from 'react';
import { type Address, concat, erc20Abi, type Hex, pad, parseUnits, toHex } from 'viem';
import { useWalletClient } from 'wagmi';
import { api, data, signedRequest } from './api';
import { Notice, type Said, said } from './errors';
import { amountOf, short, USDC } from './format';
import { withdrawalMismatch } from './safe-withdrawal';
import { checkAmount } from './trade/inputs';
import { RefusedError, useTransactions } from './transactions';
import { HashText } from './ui';
import { useChainInfo, useSigner } from './wallet';

export interface SetupCompany {
  id: string;
  slug: string;
  status: string;
  ceoPrompt: string | null;
  tokenStatus: string;
  tokenSymbol: string | null;
  treasuryStatus: string;
  creatorAddress: string;
  custody: { safe: string; roles: string; owner: string } | null;
  agents: { status: string }[];
}

/** The company's suite is not (fully) deployed: its creation was cut off before or during deploy-suite. */
export const needsFinishing = (c: { status: string; agents: { status: string }[] }) =>
  c.status === 'INCORPORATING' ||
  c.status === 'HIRING' ||
  (c.status === 'PRIVATE' && c.agents.some((a) => a.status === 'FAILED'));

/** "Finish setting up": deploy-suite again, which hires what is missing and finishes what was cut off. */
export function FinishSetup({ id, name }: { id: string; name?: string }) {
  const signer = useSigner();
  const queries = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | Said | undefined>();
  return (
    <div className="finish-setup">
      <button
        type="button"
        disabled={!signer || busy}
        onClick={async () => {
          if (!signer) return;
          setBusy(true);
          setMessage(undefined);
          try {
            await signedRequest(signer, 'POST', `/api/companies/${id}/deploy-suite`);
            setMessage(`${name ?? 'The company'} is set up: its C-suite is hired.`);
          } catch (err) {
            const failure = said(err);
            setMessage({ ...failure, text: `Setting up did not finish: ${failure.text}` });
          } finally {
            setBusy(false);
            await queries.invalidateQueries();
          }
        }}
      >
        {busy ? 'Setting up…' : name ? `Finish setting up ${name}` : 'Finish setting up'}
      </button>
      <Notice message={message} />
    </div>
  );
}

/** The owner's next steps; null for anyone else. */
export function OwnerChecklist({ company }: { company: SetupCompany }) {
  const signer = useSigner();
  const portfolio = useQuery({
    queryKey: ['company-portfolio', company.id],
    queryFn: () => data(api.GET('/api/companies/{id}/portfolio', { params: { path: { id: company.id } } })),
  });
  if (!signer || signer.address.toLowerCase() !== company.creatorAddress.toLowerCase()) return null;
  const unfinished = needsFinishing(company);
  const p = portfolio.data;
  // Exact, in base units: the Safe's USDC and every agent wallet's.
  const usdcOf = (text: string | undefined) => parseUnits(text ?? '0', 6);
  const usdc = p
    ? usdcOf(p.safe?.balances?.usdc) + p.agents.reduce((sum, a) => sum + usdcOf(a.balances?.usdc), 0n)
    : 0n;
  const launched = company.tokenStatus !== 'PRE_PUBLIC';
  const steps: { key: string; done: boolean; label: string; detail: ReactNode }[] = [
    {
      key: 'fund',
      done: usdc > 0n,
      label: 'Fund it',
      detail:
        usdc > 0n ? (
          <>It holds {amountOf(usdc, USDC, 2)}.</>
        ) : (
          <a href="#money-h">Send USDC {company.custody ? "into the company's Safe" : "to its CFO's wallet"}</a>
        ),
    },
    {
      key: 'launch',
      done: launched,
      label: 'Launch its token',
      detail: launched ? (
        <Link to="/companies/$id/token" params={{ id: company.slug }}>
          Open ${company.tokenSymbol}
        </Link>
      ) : (
        <a href="#launch-form">Choose its name and symbol</a>
      ),
    },
    {
      key: 'directive',
      done: !!company.ceoPrompt,
      label: 'Set its directive',
      detail: company.ceoPrompt ? 'Set.' : <a href="#directive-form">Tell its CEO what to aim for</a>,
    },
    {
      key: 'treasury',
      done: company.treasuryStatus === 'PROVEN',
      label: 'Prove its treasury',
      detail:
        company.treasuryStatus === 'PROVEN' ? (
          'Proven: epoch rewards are paid to it.'
        ) : (
          <a href="#treasury-form">Name the address that receives its rewards</a>
        ),
    },
  ];
  const left = steps.filter((s) => !s.done).length;
  if (!unfinished && left === 0) return null;
  return (
    <section aria-labelledby="next-h" className="panel checklist">
      <h2 id="next-h">{unfinished ? 'Finish setting up' : 'Next steps'}</h2>
      {unfinished ? (
        <>
          <p>
            The company was created but its C-suite is not fully deployed (the creation was interrupted). Finish setting
            it up: its agents get their wallets and identities{company.custody ? '' : ', and its Safe'}.
          </p>
          <FinishSetup id={company.id} />
        </>
      ) : (
        <p>
          {left} of {steps.length} left.
        </p>
      )}
      <ol className="steps">
        {steps.map((s) => (
          <li key={s.key} data-step={s.key} data-done={s.done}>
            <span className={`badge ${s.done ? 'active' : 'pending'}`}>{s.done ? 'Done' : 'To do'}</span>{' '}
            <strong>{s.label}</strong>: {s.detail}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The Safe's signature bytes for its owner contract carrying the holder's signature (src/chain/custody.ts
 * `ownerContractSignature`): r = the owner, s = where the data starts, v = 0, then the holder's signature.
 */
function ownerContractSignature(owner: Address, holderSignature: Hex): Hex {
  return concat([
    pad(owner, { size: 32 }),
    pad(toHex(65), { size: 32 }),
    '0x00',
    pad(toHex((holderSignature.length - 2) / 2), { size: 32 }),
    holderSignature,
  ]);
}

/** Funding, withdrawal and the move into a Safe, for the company's owner. */
export function CompanyMoney({ company }: { company: SetupCompany }) {
  const info = useChainInfo();
  const signer = useSigner();
  const { data: wallet } = useWalletClient();
  const tx = useTransactions();
  const queries = useQueryClient();
  const [fundText, setFundText] = useState('');
  const [withdrawText, setWithdrawText] = useState('');
  const [message, setMessage] = useState<string | Said | undefined>();
  const [busy, setBusy] = useState(false);
  const funding = useQuery({
    queryKey: ['company-funding', company.id],
    queryFn: () => data(api.GET('/api/companies/{id}/funding', { params: { path: { id: company.id } } })),
  });
  if (!signer || signer.address.toLowerCase() !== company.creatorAddress.toLowerCase()) return null;
  const recipient = funding.data?.recipients[0];
  const fund = checkAmount(fundText, USDC);
  const out = checkAmount(withdrawText, USDC);
  const act = async (what: string, run: () => Promise<string | undefined>) => {
    setBusy(true);
    setMessage(undefined);
    try {
      setMessage((await run()) ?? `${what}: done.`);
      await queries.invalidateQueries();
    } catch (err) {
      const failure = said(err);
      setMessage({ ...failure, text: `${what} failed: ${failure.text}` });
    } finally {
      setBusy(false);
    }
  };
  const onFund = (e: FormEvent) => {
    e.preventDefault();
    if (!fund.ok || !recipient || !funding.data) return;
    void act('Funding', async () => {
      await tx.send([
        {
          title: `Send ${fundText} USDC`,
          request: {
            address: funding.data.usdc as Address,
            abi: erc20Abi,
            functionName: 'transfer',
            args: [recipient.address as Address, fund.value],
          },
          context: { action: 'transfer', spent: USDC },
        },
      ]);
      setFundText('');
      return `Sent ${fundText} USDC ${company.custody ? "into the company's Safe" : "to the CFO's wallet"}.`;
    });
  };
  const onWithdraw = (e: FormEvent) => {
    e.preventDefault();
    const custody = company.custody;
    if (!out.ok || !custody || !wallet) return;
    void act('Withdrawal', async () => {
      // The service builds the Safe transaction; this wallet signs it and executes it itself.
      const amount = withdrawText.trim();
      const built = await signedRequest<{
        safe: Address;
        owner: Address;
        typedData: {
          domain: { chainId: number; verifyingContract: Address };
          types: { SafeTx: { name: string; type: string }[] };
          message: Record<string, string | number>;
        };
      }>(signer, 'POST', `/api/companies/${company.id}/safe/withdrawal`, {
        amount: formatPlain(out.value),
      });
      const m = built.typedData.message;
      // Signed only when it is the transfer asked for, to this wallet (safe-withdrawal.ts).
      const mismatch = withdrawalMismatch(built, {
        chainId: info.chainId,
        safe: custody.safe as Address,
        usdc: info.contracts.usdc as Address,
        to: signer.address,
        amount: out.value,
      });
      if (mismatch) throw new RefusedError(mismatch);
      const signature = await wallet.signTypedData({
        account: signer.address,
        domain: built.typedData.domain,
        types: built.typedData.types,
        primaryType: 'SafeTx',
        message: m,
      });
      await tx.send([
        {
          title: `Withdraw ${amount} USDC from the Safe`,
          request: {
            address: built.safe,
            abi: SafeL2Abi,
            functionName: 'execTransaction',
            args: [
              m.to,
              BigInt(m.value!),
              m.data,
              Number(m.operation),
              BigInt(m.safeTxGas!),
              BigInt(m.baseGas!),
              BigInt(m.gasPrice!),
              m.gasToken,
              m.refundReceiver,
              ownerContractSignature(built.owner, signature),
            ],
          },
          context: { action: 'withdrawal', received: USDC },
        },
      ]);
      setWithdrawText('');
      return `Withdrew ${amount} USDC from the company's Safe to your wallet.`;
    });
  };
  const movable = !company.custody && (company.status === 'PRIVATE' || company.status === 'PUBLIC');
  return (
    <section aria-labelledby="money-h" className="panel">
      <h2 id="money-h">Money</h2>
      <p>
        {company.custody ? (
          <>
            The company's money is in its own Safe, which only the holder of its card controls; its agents trade from it
            within their on-chain limits.
          </>
        ) : (
          <>The company has no Safe: each agent trades from its own wallet. Funding sends USDC to its CFO's wallet.</>
        )}
      </p>
      <form onSubmit={onFund} noValidate>
        <label>
          Fund with USDC (from your wallet, one transaction)
          <input
            name="fund"
            inputMode="decimal"
            value={fundText}
            onChange={(e) => setFundText(e.target.value)}
            aria-invalid={fundText !== '' && !fund.ok}
            aria-describedby="fund-help"
          />
        </label>
        <p id="fund-help" className="muted">
          {fundText !== '' && !fund.ok ? (
            fund.error
          ) : recipient ? (
            <>
              To <HashText value={recipient.address} label="funding address" />
            </>
          ) : (
            '…'
          )}
        </p>
        <button type="submit" disabled={busy || !fund.ok || !recipient || !tx.ready}>
          Fund
        </button>
      </form>
      {company.custody && (
        <form onSubmit={onWithdraw} noValidate>
          <label>
            Withdraw USDC from the Safe to your wallet
            <input
              name="withdraw"
              inputMode="decimal"
              value={withdrawText}
              onChange={(e) => setWithdrawText(e.target.value)}
              aria-invalid={withdrawText !== '' && !out.ok}
              aria-describedby="withdraw-help"
            />
          </label>
          <p id="withdraw-help" className="muted">
            {withdrawText !== '' && !out.ok
              ? out.error
              : 'Your wallet signs the Safe transaction, then sends it: the platform cannot move the Safe’s money.'}
          </p>
          <button type="submit" disabled={busy || !out.ok || !wallet}>
            Withdraw
          </button>
        </form>
      )}
      {movable && (
        <p>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void act('Moving into a Safe', async () => {
                const moved = await signedRequest<{ custody: { safe: string }; swept: unknown[] }>(
                  signer,
                  'POST',
                  `/api/companies/${company.id}/custody`,
                );
                return `The company now has its own Safe (${short(moved.custody.safe)}); ${moved.swept.length} agent wallet${moved.swept.length === 1 ? '' : 's'} swept into it.`;
              })
            }
          >
            Move the company's money into a Safe of its own
          </button>
        </p>
      )}
      <Notice message={message} />
    </section>
  );
}

/** A base-unit USDC amount as a plain decimal string (no grouping, a point for decimals). */
function formatPlain(value: bigint): string {
  const whole = value / 1_000_000n;
  const fraction = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
