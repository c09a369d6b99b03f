// Wallets (wagmi + viem): injected EIP-1193 wallets everywhere, and on the local chain (31337) only, a picker of
// anvil's public development accounts, whose transactions and signatures the local node makes with its own
// unlocked keys, so the platform can be used with no extension. The chain and its contracts come from GET /api/chain.
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { type Address, defineChain, erc20Abi } from 'viem';
import {
  type Connector,
  createConfig,
  createConnector,
  http,
  unstable_connector,
  useConnect,
  useConnection,
  useConnectors,
  useDisconnect,
  useReadContracts,
  useWalletClient,
  WagmiProvider,
} from 'wagmi';
import { injected, mock } from 'wagmi/connectors';
import { rejectedInWallet, type Signer } from './api';
import { ErrorDetails, said } from './errors';
import { amountOf, USDC } from './format';

export const LOCAL_CHAIN_ID = 31337;
const DEV_ACCOUNT_KEY = 'ai-economy.dev-account';

/** anvil's ten default accounts (public keys of a public mnemonic: for the local chain only). */
export const DEV_ACCOUNTS: Address[] = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
  '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
  '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
  '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
  '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
  '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
];

export interface ChainInfo {
  chainId: number;
  rpcUrl?: string;
  /** The chain's clock when this was read (chain-time.tsx counts from it). */
  now?: string;
  explorerUrl: string | null;
  contracts: Partial<Record<string, Address>>;
}

export function makeWagmiConfig(info: ChainInfo) {
  const local = info.chainId === LOCAL_CHAIN_ID && !!info.rpcUrl;
  const chain = defineChain({
    id: info.chainId,
    name: local ? 'Local (anvil)' : info.chainId === 8453 ? 'Base' : `Chain ${info.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: info.rpcUrl ? [info.rpcUrl] : [] } },
  });
  // One connector per dev account (id `dev-<n>`): the local node signs for them with its unlocked keys. The account
  // chosen is remembered in this browser, so a reload reconnects it (and only it).
  const dev = local
    ? DEV_ACCOUNTS.map((address, i) =>
        createConnector((config) => {
          const base = mock({ accounts: [address], features: { reconnect: true, defaultConnected: true } })(config);
          return {
            ...base,
            id: `dev-${i}`,
            name: `Dev account ${i}`,
            connect: (async (parameters) => {
              const connected = await base.connect(parameters);
              localStorage.setItem(DEV_ACCOUNT_KEY, String(i));
              return connected;
            }) as typeof base.connect,
            async disconnect() {
              localStorage.removeItem(DEV_ACCOUNT_KEY);
              await base.disconnect();
            },
            isAuthorized: async () => localStorage.getItem(DEV_ACCOUNT_KEY) === String(i),
          };
        }),
      )
    : [];
  return createConfig({
    chains: [chain],
    connectors: [injected(), ...dev],
    // The local node is read directly; elsewhere reads go through the connected wallet's own provider.
    transports: { [chain.id]: local ? http(info.rpcUrl, { batch: true }) : unstable_connector(injected) },
  });
}

const ChainInfoContext = createContext<ChainInfo>({ chainId: 0, explorerUrl: null, contracts: {} });

/** The chain the platform runs on and its contracts (GET /api/chain, read once at start). */
export const useChainInfo = () => useContext(ChainInfoContext);

export function WalletProviders({
  info,
  queryClient,
  children,
}: {
  info: ChainInfo;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  const config = useMemo(() => makeWagmiConfig(info), [info]);
  return (
    <ChainInfoContext.Provider value={info}>
      <WagmiProvider config={config}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </WagmiProvider>
    </ChainInfoContext.Provider>
  );
}

/** The connected wallet as the API's signer, or undefined. */
export function useSigner(): Signer | undefined {
  const { address } = useConnection();
  const { data: wallet } = useWalletClient();
  if (!address || !wallet) return undefined;
  return { address, signMessage: (message) => wallet.signMessage({ account: address, message }) };
}

const devIndexOf = (id: string | undefined) => (id?.startsWith('dev-') ? Number(id.slice(4)) : undefined);

export function WalletButton({ chainId }: { chainId: number }) {
  const { address, connector } = useConnection();
  const connectors = useConnectors();
  const { connectAsync, error, isPending } = useConnect();
  const { disconnect } = useDisconnect();
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  // The menu closes with Escape (focus back on its button) and with a click or tap outside it.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      menu.current?.querySelector<HTMLButtonElement>('button[aria-expanded]')?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  if (address) {
    const dev = devIndexOf(connector?.id);
    return (
      <div className="wallet">
        <Link to="/account" className="address" title={address}>
          <span className="sr-only">Your account: </span>
          {dev !== undefined ? `Dev ${dev} · ` : ''}
          {address.slice(0, 6)}…{address.slice(-4)}
        </Link>
        <button type="button" className="secondary" onClick={() => disconnect()}>
          Disconnect
        </button>
      </div>
    );
  }
  const injectedConnector = connectors.find((c) => c.type === 'injected');
  const devConnectors = connectors.filter((c) => devIndexOf(c.id) !== undefined);
  return (
    <div className="wallet" ref={menu}>
      <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} disabled={isPending}>
        {isPending ? 'Connecting…' : 'Connect wallet'}
      </button>
      {open && (
        <div className="wallet-menu">
          {/* The error is beside the menu, not in it: a menu holds only its items (axe aria-required-children). */}
          <div className="wallet-menu-items" role="menu">
            {injectedConnector && (
              <button
                type="button"
                role="menuitem"
                onClick={() =>
                  connectAsync({ connector: injectedConnector }).then(
                    () => setOpen(false),
                    () => {},
                  )
                }
              >
                Browser wallet
              </button>
            )}
            {chainId === LOCAL_CHAIN_ID && (
              <DevAccounts
                connectors={devConnectors}
                connect={(connector) =>
                  connectAsync({ connector }).then(
                    () => setOpen(false),
                    () => {},
                  )
                }
              />
            )}
          </div>
          {error && <ConnectError error={error} />}
        </div>
      )}
    </div>
  );
}

/** Why connecting failed, said as every error is (errors.tsx), the wallet library's text behind "Details". */
function ConnectError({ error }: { error: Error }) {
  const m = said(error, 'connection');
  const text = rejectedInWallet(error)
    ? 'The wallet refused the connection. Nothing was shared; connect again when you are ready.'
    : /provider not found|no provider/i.test(error.message)
      ? 'No browser wallet was found: install a wallet extension such as MetaMask or Rabby (or open this page in a wallet app), then reload.'
      : m.text;
  return (
    <div className="notice-block">
      <p role="alert" className="error">
        {text}
      </p>
      {m.detail && <ErrorDetails detail={m.detail} />}
    </div>
  );
}

/**
 * The local chain's development accounts, each with its USDC balance: the ten balances are read together when the
 * menu opens (one JSON-RPC batch to the local node, the transport batching calls made together) and written exactly
 * in USDC units.
 */
function DevAccounts({
  connectors,
  connect,
}: {
  connectors: readonly Connector[];
  connect: (connector: Connector) => void;
}) {
  const { contracts } = useChainInfo();
  const usdc = contracts.usdc as Address | undefined;
  const balances = useReadContracts({
    contracts: DEV_ACCOUNTS.map((account) => ({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account],
    })),
    query: { enabled: !!usdc },
  });
  return connectors.map((c) => {
    const i = devIndexOf(c.id)!;
    const balance = balances.data?.[i];
    return (
      <button
        type="button"
        role="menuitem"
        className="dev-account"
        key={c.uid}
        data-dev-account={i}
        onClick={() => connect(c)}
      >
        <span>
          Dev account {i} <span className="muted">({DEV_ACCOUNTS[i]!.slice(0, 6)}…)</span>
        </span>
        <span className="dev-balance" data-testid={`dev-balance-${i}`}>
          {balance?.status === 'success'
            ? amountOf(balance.result as bigint, USDC)
            : balances.isPending
              ? '… USDC'
              : 'USDC unknown'}
        </span>
      </button>
    );
  });
}
