// Minting access cards: the current tranche, its price and the supply left per tier, the wallet's USDC balance and
// what a mint of 1 to 5 cards costs; the mint is simulated before anything is signed, and the USDC approval (only
// when the allowance falls short, for exactly the cost) is sent only when the mint after it would succeed. A price the
// owner scheduled (it takes effect a day after it is set, docs/contracts.md "Access card prices") is shown with its
// time; a tranche whose price is not in effect yet cannot be minted and says when it opens.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { CARD_TIERS } from '@ai-economy/shared/constants';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { type Address, erc20Abi, parseEventLogs } from 'viem';
import { useConnection, usePublicClient, useReadContracts } from 'wagmi';
import { fullDate } from '../chain-time';
import { Notice, type Said, said } from '../errors';
import { amountOf, USDC } from '../format';
import { hasEntryPoint } from '../permit';
import { chainSeconds } from '../trade/chain-reads';
import { checkCount } from '../trade/inputs';
import { RefusedError, type Step, useTransactions } from '../transactions';
import { ErrorBox, Loading, Page, TableWrap } from '../ui';
import { useChainInfo } from '../wallet';

/** How long a mint's permit (and the mint) may wait to be mined. */
const PERMIT_DEADLINE_S = 600n;
/** AccessCard's MAX_BATCH: cards one mint may take. */
const MAX_PER_MINT = 5;

export default function Mint() {
  const info = useChainInfo();
  const card = { address: info.contracts.accessCard as Address, abi: AccessCardAbi } as const;
  const reads = useReadContracts({
    contracts: [
      { ...card, functionName: 'currentTranche' },
      { ...card, functionName: 'totalMinted' },
      { ...card, functionName: 'mintPrice' },
      { ...card, functionName: 'mintActive' },
      { ...card, functionName: 'pendingMintPrice' },
    ],
    allowFailure: false,
  });
  const { address } = useConnection();
  const usdc = { address: info.contracts.usdc as Address, abi: erc20Abi } as const;
  const wallet = useReadContracts({
    contracts: [
      { ...usdc, functionName: 'balanceOf', args: [address!] },
      { ...usdc, functionName: 'allowance', args: [address!, card.address] },
    ],
    allowFailure: false,
    query: { enabled: !!address },
  });
  // The field keeps what is typed ("", "2.5", "13"); the count is checked apart, and nothing is computed from a bad one.
  const [quantityText, setQuantityText] = useState('1');
  const checked = checkCount(quantityText, 1, MAX_PER_MINT, 'cards');
  const quantity = checked.ok ? checked.value : 0;
  const [message, setMessage] = useState<string | Said | undefined>();
  const [minted, setMinted] = useState<bigint[]>([]);
  const { send, spend, pending, ready } = useTransactions();
  const client = usePublicClient();
  if (reads.isPending) return <Loading what="the tranches" size="page" />;
  if (reads.isError) return <ErrorBox error={reads.error} retry={() => void reads.refetch()} />;
  const [tranche, total, price, active, [pendingPrice, pendingAt]] = reads.data as [
    number,
    bigint,
    bigint,
    boolean,
    readonly [bigint, bigint],
  ];
  // 0 is a tranche whose price has not taken effect yet: nothing can be minted before `pendingAt`.
  const open = price > 0n;
  const minted_ = Number(total);
  const cost = price * BigInt(quantity);
  const [balance] = (wallet.data ?? []) as [bigint?, bigint?];
  async function mint(e: FormEvent) {
    e.preventDefault();
    setMessage(undefined);
    if (!checked.ok) return;
    const context = { action: 'mint', spent: USDC };
    try {
      if (!client) throw new RefusedError('Connect a wallet first.');
      // The price agreed to is the one on screen: a tranche that changes under the mint reverts it.
      const mintStep: Step = {
        title: `Mint ${quantity} card${quantity === 1 ? '' : 's'} for ${amountOf(cost, USDC)}`,
        request: { ...card, functionName: 'mintBatch', args: [BigInt(quantity), price] },
        context,
      };
      // The allowance read afresh at the click, not from what the page holds (a click before the reads arrived, an
      // allowance changed since): it decides between the mint alone and a permit's signature with it.
      const read = (await wallet.refetch()).data;
      if (read === undefined)
        throw new RefusedError('Your USDC balance could not be read from the chain. Try again in a moment.');
      const [, allowed] = read as [bigint, bigint];
      const deadline = (await chainSeconds(client)) + PERMIT_DEADLINE_S;
      const steps = await spend(
        { token: usdc.address, unit: USDC, spender: card.address, value: cost, allowance: allowed, deadline },
        mintStep,
        hasEntryPoint(AccessCardAbi, 'mintWithPermit')
          ? (p) => ({
              ...mintStep,
              request: {
                ...card,
                functionName: 'mintWithPermit',
                args: [BigInt(quantity), price, deadline, p.v, p.r, p.s],
              },
            })
          : undefined,
      );
      const receipts = await send(steps);
      const ids = parseEventLogs({ abi: AccessCardAbi, logs: receipts.at(-1)!.logs, eventName: 'CardMinted' }).map(
        (l) => l.args.tokenId,
      );
      setMinted(ids);
      setMessage(`Minted ${ids.length} card${ids.length === 1 ? '' : 's'} for ${amountOf(cost, USDC)}.`);
    } catch (err) {
      setMessage(said(err, 'mint'));
    }
  }
  return (
    <Page title="Mint an access card">
      <p className="lead">
        A card lets its holder create one company and boosts its holder's staking.{' '}
        {open ? (
          <>
            Tranche {tranche} is on sale at {amountOf(price, USDC)} a card.
          </>
        ) : (
          <>Tranche {tranche} opens when its price takes effect.</>
        )}
      </p>
      {pendingAt > 0n && (
        <p className="notice" data-testid="mint-pending-price">
          {open ? 'From' : `Tranche ${tranche} opens on`} {fullDate(Number(pendingAt) * 1000)} (the chain's time) a card
          costs {amountOf(pendingPrice, USDC)}.
        </p>
      )}
      <TableWrap label="Cards left per tier">
        <table>
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col">Cards</th>
              <th scope="col" className="num">
                Left
              </th>
            </tr>
          </thead>
          <tbody>
            {CARD_TIERS.map((t) => (
              <tr key={t.name}>
                <td>{t.label}</td>
                <td>
                  #{t.firstId}–#{t.lastId}
                </td>
                <td className="num">{Math.max(0, t.lastId - Math.max(minted_, t.firstId - 1)).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <form onSubmit={mint} className="panel">
        <div className="field">
          <label htmlFor="mint-quantity">Cards to mint (1 to {MAX_PER_MINT})</label>
          <input
            id="mint-quantity"
            inputMode="numeric"
            autoComplete="off"
            value={quantityText}
            onChange={(e) => {
              setQuantityText(e.target.value);
              setMessage(undefined);
            }}
            aria-invalid={checked.ok ? undefined : true}
            aria-describedby="mint-quantity-error"
          />
          <p id="mint-quantity-error" className="field-error" role={checked.ok ? undefined : 'alert'}>
            {checked.ok ? '' : checked.error}
          </p>
        </div>
        <dl className="facts">
          <dt>You pay</dt>
          <dd data-testid="mint-cost">
            {checked.ok ? `${amountOf(cost, USDC)} (${quantity} × ${amountOf(price, USDC)})` : '—'}
          </dd>
          <dt>Your USDC balance</dt>
          <dd data-testid="usdc-balance">
            {!address ? 'connect a wallet' : balance === undefined ? '…' : amountOf(balance, USDC)}
          </dd>
        </dl>
        {checked.ok && balance !== undefined && balance < cost && (
          <p className="field-warning">
            You have {amountOf(balance, USDC)}; {quantity === 1 ? 'a card costs' : `${quantity} cards cost`}{' '}
            {amountOf(cost, USDC)}.
          </p>
        )}
        <button type="submit" disabled={!ready || !!pending || !active || !open || !checked.ok}>
          {pending
            ? `${pending}…`
            : !active
              ? 'Minting is paused'
              : !open
                ? 'Not open yet'
                : ready
                  ? checked.ok
                    ? `Mint ${quantity}`
                    : 'Mint'
                  : 'Connect a wallet to mint'}
        </button>
        <Notice message={message} />
        {minted.length > 0 && (
          <p>
            Your new cards:{' '}
            {minted.map((id) => (
              <Link key={String(id)} to="/cards/$id" params={{ id: String(id) }}>
                #{id}{' '}
              </Link>
            ))}
            · <Link to="/create">Create a company</Link>
          </p>
        )}
      </form>
    </Page>
  );
}
