// The web app: the chain it runs on (GET /api/chain), the wallet and query providers, live events, and the pages
// by route (router.tsx). Pages other than the token board (home) load when first opened.
import { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { api, data } from './api';
import { seedChainClock } from './chain-time';
import { LiveProvider } from './live';
import { router } from './router';
import { ToastProvider } from './toasts';
import { ErrorBox } from './ui';
import { type ChainInfo, WalletProviders } from './wallet';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 5_000, retry: 1, refetchOnWindowFocus: false } },
});

async function start() {
  const root = createRoot(document.getElementById('root')!);
  let info: ChainInfo;
  try {
    info = (await data(api.GET('/api/chain'))) as ChainInfo;
    seedChainClock(info.now);
  } catch (err) {
    root.render(
      <main id="main" className="page">
        <h1>ai-economy</h1>
        <ErrorBox error={err} retry={() => window.location.reload()} />
      </main>,
    );
    return;
  }
  root.render(
    <StrictMode>
      <WalletProviders info={info} queryClient={queryClient}>
        <LiveProvider>
          <ToastProvider>
            <RouterProvider router={router} />
          </ToastProvider>
        </LiveProvider>
      </WalletProviders>
    </StrictMode>,
  );
}

void start();
