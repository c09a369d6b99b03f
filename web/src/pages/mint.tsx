// Minting access cards: the current tranche, its price and the supply left per tier, and a mint of 1 to 5 cards
// with the USDC approval in the flow.
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { type Address, erc20Abi, formatUnits } from 'viem';
import { useReadContracts } from 'wagmi';
import { AccessCardAbi } from '../../../src/chain/generated/abis';
import { humanError } from '../api';
import { ErrorBox, Loading, Page } from '../ui';
import { useChainInfo, useTransactions } from '../wallet';

const TIERS = [
  { name: 'Black', from: 1, to: 1_000 },
  { name: 'Gold', from: 1_001, to: 4_000 },
  { name: 'Silver', from: 4_001, to: 10_000 },
];

export default function Mint() {
  const info = useChainInfo();
  const card = { address: info.contracts.accessCard as Address, abi: AccessCardAbi } as const;
  const reads = useReadContracts({
    contracts: [
      { ...card, functionName: 'currentTranche' },
      { ...card, functionName: 'totalMinted' },
      { ...card, functionName: 'mintPrice' },
      { ...card, functionName: 'mintActive' },
    ],
    allowFailure: false,
  });
  const [quantity, setQuantity] = useState(1);
  const [message, setMessage] = useState<string | undefined>();
  const [minted, setMinted] = useState<number[]>([]);
  const { send, pending, ready } = useTransactions();
  const queries = useQueryClient();
  if (reads.isPending) return <Loading what="the tranches" />;
  if (reads.isError) return <ErrorBox error={reads.error} retry={() => void reads.refetch()} />;
  const [tranche, total, price, active] = reads.data as [number, bigint, bigint, boolean];
  const minted_ = Number(total);
  async function mint(e: FormEvent) {
    e.preventDefault();
    setMessage(undefined);
    try {
      const cost = price * BigInt(quantity);
      await send('Approve USDC', {
        address: info.contracts.usdc as Address,
        abi: erc20Abi,
        functionName: 'approve',
        args: [card.address, cost],
      });
      await send(`Mint ${quantity}`, { ...card, functionName: 'mintBatch', args: [BigInt(quantity), price] });
      setMinted(Array.from({ length: quantity }, (_, i) => minted_ + 1 + i));
      setMessage(`Minted ${quantity} card${quantity === 1 ? '' : 's'}.`);
      await reads.refetch();
      await queries.invalidateQueries({ queryKey: ['card'] });
    } catch (err) {
      setMessage(humanError(err));
    }
  }
  return (
    <Page title="Mint an access card">
      <p className="lead">
        A card lets its holder create one company and boosts its holder's staking. Tranche {tranche} is on sale at{' '}
        {formatUnits(price, 6)} USDC a card.
      </p>
      <div className="table-wrap">
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
            {TIERS.map((t) => (
              <tr key={t.name}>
                <td>{t.name}</td>
                <td>
                  #{t.from}–#{t.to}
                </td>
                <td className="num">{Math.max(0, t.to - Math.max(minted_, t.from - 1)).toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form onSubmit={mint} className="panel">
        <label>
          Cards to mint (1 to 5)
          <input
            type="number"
            min={1}
            max={5}
            value={quantity}
            onChange={(e) => setQuantity(Math.max(1, Math.min(5, Number(e.target.value) || 1)))}
          />
        </label>
        <p>Total: {formatUnits(price * BigInt(quantity), 6)} USDC (approved, then paid, in two transactions).</p>
        <button type="submit" disabled={!ready || !!pending || !active}>
          {pending
            ? `${pending}…`
            : !active
              ? 'Minting is paused'
              : ready
                ? `Mint ${quantity}`
                : 'Connect a wallet to mint'}
        </button>
        {message && <output className="notice">{message}</output>}
        {minted.length > 0 && (
          <p>
            Your new cards:{' '}
            {minted.map((id) => (
              <Link key={id} to="/cards/$id" params={{ id: String(id) }}>
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
