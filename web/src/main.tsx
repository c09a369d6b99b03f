// The web app: the chain it runs on (GET /api/chain), the wallet and query providers, live events, and the pages
// by route. Pages other than the Fortune List load when first opened.
import { QueryClient, useQuery } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { api, data, humanError } from './api';
import { LiveProvider } from './live';
import { Home } from './pages/home';
import { Router } from './router';
import { ErrorBox, Layout, Loading } from './ui';
import { type ChainInfo, WalletProviders } from './wallet';
import './styles.css';

const Company = lazy(() => import('./pages/company'));
const Token = lazy(() => import('./pages/token'));
const Card = lazy(() => import('./pages/card'));
const Mint = lazy(() => import('./pages/mint'));
const Create = lazy(() => import('./pages/create'));
const Staking = lazy(() => import('./pages/staking'));
const Rewards = lazy(() => import('./pages/rewards'));
const Activity = lazy(() => import('./pages/activity'));

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 5_000, retry: 1, refetchOnWindowFocus: false } },
});

function App({ info }: { info: ChainInfo }) {
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => data(api.GET('/api/health')),
    refetchInterval: 15_000,
  });
  const chainDown = health.data !== undefined && health.data.chain !== 'ok';
  return (
    <Layout chainId={info.chainId} chainDown={chainDown}>
      <Suspense fallback={<Loading what="the page" />}>
        <Router
          routes={[
            ['/', () => <Home />],
            ['/companies/:id', ({ params }) => <Company id={params.id!} info={info} />],
            ['/companies/:id/token', ({ params }) => <Token id={params.id!} info={info} />],
            ['/cards/:id', ({ params }) => <Card id={params.id!} />],
            ['/mint', () => <Mint info={info} />],
            ['/create', () => <Create />],
            ['/staking', () => <Staking info={info} />],
            ['/rewards', () => <Rewards />],
            ['/activity', () => <Activity />],
            ['*', () => <ErrorBox error={new Error('This page does not exist.')} />],
          ]}
        />
      </Suspense>
    </Layout>
  );
}

async function start() {
  const root = createRoot(document.getElementById('root')!);
  let info: ChainInfo;
  try {
    info = (await data(api.GET('/api/chain'))) as ChainInfo;
  } catch (err) {
    root.render(
      <main id="main" className="page">
        <h1>ai-economy</h1>
        <ErrorBox error={err} retry={() => window.location.reload()} />
        <p className="muted">{humanError(err)}</p>
      </main>,
    );
    return;
  }
  root.render(
    <StrictMode>
      <WalletProviders info={info} queryClient={queryClient}>
        <LiveProvider>
          <App info={info} />
        </LiveProvider>
      </WalletProviders>
    </StrictMode>,
  );
}

void start();
