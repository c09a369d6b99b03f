// An access card (/cards/{id}, the NFT metadata's external_url): its image, tier and boost, its holder on-chain, and
// the company it is bound to.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { type Address, BaseError, ContractFunctionRevertedError } from 'viem';
import { useReadContract } from 'wagmi';
import { api, data } from '../api';
import { said } from '../errors';
import { ErrorBox, Loading, Page, short } from '../ui';
import { useChainInfo } from '../wallet';

const route = getRouteApi('/cards/$id');

/** The contract refused the read (a card that does not exist), as opposed to a node that did not answer. */
const notMinted = (err: unknown) =>
  err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError) !== null;

export default function Card() {
  const { id } = route.useParams();
  const tokenId = Number(id);
  const valid = Number.isInteger(tokenId) && tokenId >= 1 && tokenId <= 10_000;
  const info = useChainInfo();
  const metadata = useQuery({
    queryKey: ['card', tokenId],
    enabled: valid,
    queryFn: async () => {
      const res = await fetch(`/api/nft/metadata/${tokenId}`);
      if (!res.ok)
        throw new Error(
          res.status === 404
            ? `Card #${tokenId} has not been minted.`
            : `The card could not be read (HTTP ${res.status}).`,
        );
      return (await res.json()) as {
        name: string;
        description: string;
        image: string;
        attributes: { trait_type: string; value: string }[];
      };
    },
  });
  const bound = useQuery({
    queryKey: ['card', tokenId, 'company'],
    enabled: valid,
    queryFn: () => data(api.GET('/api/cards/{tokenId}', { params: { path: { tokenId } } })),
  });
  const holder = useReadContract({
    address: info.contracts.accessCard as Address,
    abi: AccessCardAbi,
    functionName: 'ownerOf',
    args: [BigInt(valid ? tokenId : 1)],
    query: { enabled: valid },
  });
  if (!valid) return <ErrorBox error={new Error('A card id is a number from 1 to 10,000.')} />;
  // ownerOf reverts for a card nobody minted: the metadata alone would describe a card that does not exist.
  if (holder.isError && notMinted(holder.error)) {
    return (
      <Page title={`Card #${tokenId} is not minted yet`}>
        <p>
          Nobody holds card #{tokenId}: it has not been minted. <Link to="/mint">Mint a card</Link>.
        </p>
      </Page>
    );
  }
  if (metadata.isPending || holder.isPending) return <Loading what="the card" size="page" />;
  if (metadata.isError) return <ErrorBox error={metadata.error} retry={() => void metadata.refetch()} />;
  const m = metadata.data;
  return (
    <Page title={m.name}>
      <div className="card-view">
        {/* The image from this service itself: the metadata's absolute URL names BASE_URL, which the page's
            own origin may not be (a proxy, a test), and the content security policy allows images from 'self'. */}
        <img
          src={`/api/nft/image/${tokenId}`}
          alt={`${m.name}, ${m.attributes.find((a) => a.trait_type === 'Tier')?.value ?? ''} tier`}
          width={320}
          height={320}
        />
        <div>
          <p>{m.description}</p>
          <dl className="facts">
            {m.attributes.map((a) => (
              <div key={a.trait_type}>
                <dt>{a.trait_type}</dt>
                <dd>{a.value}</dd>
              </div>
            ))}
            <dt>Holder</dt>
            <dd>
              {holder.data ? (
                <code title={holder.data}>{short(holder.data)}</code>
              ) : holder.isError ? (
                said(holder.error).text
              ) : (
                '…'
              )}
            </dd>
            <dt>Company</dt>
            <dd>
              {bound.data?.company ? (
                <Link to="/companies/$id" params={{ id: bound.data.company.slug }}>
                  {bound.data.company.name}
                </Link>
              ) : bound.isPending ? (
                '…'
              ) : (
                'Not bound to a company yet'
              )}
            </dd>
          </dl>
        </div>
      </div>
    </Page>
  );
}
