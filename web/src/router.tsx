// The app's routes (TanStack Router): typed paths, path parameters and search parameters, the scroll position
// restored on Back and Forward, and every page but the token board (the home page) in a chunk of its own, loaded when first opened
// or when a link to it is hovered or focused. The service answers index.html for every app path, so deep links and
// refreshes land here; the paths are WEB_PAGES (packages/shared/src/pages.ts), by which the service answers any
// other path 404 (with the app, which says "Page not found").

import { COMPANY_CATEGORIES } from '@ai-economy/shared/constants';
import { WEB_PAGES } from '@ai-economy/shared/pages';
import { useQuery } from '@tanstack/react-query';
import {
  createRootRoute,
  createRoute,
  createRouter,
  type ErrorComponentProps,
  Link,
  Outlet,
  useRouter,
} from '@tanstack/react-router';
import { type ComponentType, createElement, useCallback, useEffect } from 'react';
import { api, data } from './api';
import { BOARD_SORTS, BOARD_TABS, type BoardSort, type BoardTab, type SortDir } from './board';
import type { Category, League } from './categories';
import { Home } from './pages/home';
import { ErrorBox, Layout, Loading, Page } from './ui';
import { useChainInfo } from './wallet';

export type { Category };

/** The shell of every page: navigation, wallet, the chain banner (from the health check), then the page. */
function Root() {
  const info = useChainInfo();
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => data(api.GET('/api/health')),
    refetchInterval: 15_000,
  });
  const chainDown = health.data !== undefined && health.data.chain !== 'ok';
  return (
    <Layout chainId={info.chainId} chainDown={chainDown}>
      <Outlet />
    </Layout>
  );
}

function NotFound() {
  return (
    <Page title="Page not found">
      <p>This page does not exist.</p>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </Page>
  );
}

/** A page's code that did not arrive (offline, a dropped connection), as opposed to an error of the page itself. */
class PageLoadError extends Error {}

/**
 * A page's code, loaded when first opened (or when a link to it is hovered or focused). Unlike the router's own
 * lazyRouteComponent, a failed load is neither kept for ever nor answered with a reload of the whole app (which,
 * offline, leaves the browser's error screen): the page says so, and loading is tried again on the next render.
 */
function lazyPage(importer: () => Promise<{ default: ComponentType }>) {
  let comp: ComponentType | undefined;
  let pending: Promise<void> | undefined;
  let failed: unknown;
  const load = () => {
    if (comp) return Promise.resolve();
    pending ??= importer().then(
      (m) => {
        comp = m.default;
      },
      (err) => {
        failed = err;
        pending = undefined;
      },
    );
    return pending;
  };
  function Lazy(props: object) {
    if (comp) return createElement(comp, props);
    if (failed !== undefined) {
      const cause = failed;
      failed = undefined;
      throw new PageLoadError(String((cause as Error)?.message ?? cause));
    }
    throw load();
  }
  Lazy.preload = load;
  return Lazy;
}

function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const offline = error instanceof PageLoadError;
  const retry = useCallback(() => {
    reset();
    void router.invalidate();
  }, [reset, router]);
  // Back online: the page loads again on its own.
  useEffect(() => {
    if (!offline) return;
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [offline, retry]);
  if (offline) {
    return (
      <div className="error-box" role="alert">
        <p>
          This page could not be loaded: the connection seems to be down. It loads on its own as soon as the network is
          back.
        </p>
        <button type="button" className="secondary" onClick={retry}>
          Try again
        </button>
      </div>
    );
  }
  return <ErrorBox error={error} retry={retry} />;
}

const root = createRootRoute({ component: Root, notFoundComponent: NotFound });

/** A search parameter's value when it is one of `allowed`; anything else in the address is dropped. */
function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return allowed.includes(value as T) ? (value as T) : undefined;
}

export interface BoardSearch {
  tab?: BoardTab;
  sort?: BoardSort;
  dir?: SortDir;
  q?: string;
}

/** The search typed, kept as text (the search parser reads `?q=123` as a number), at most 100 characters. */
function searchText(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim().slice(0, 100);
  return text === '' ? undefined : text;
}

const home = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.home,
  component: Home,
  validateSearch: (search: Record<string, unknown>): BoardSearch => ({
    tab: oneOf(search.tab, BOARD_TABS),
    sort: oneOf(search.sort, BOARD_SORTS),
    dir: oneOf(search.dir, ['asc', 'desc'] as const),
    q: searchText(search.q),
  }),
});

const fortune = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.fortune,
  component: lazyPage(() => import('./pages/fortune')),
  validateSearch: (search: Record<string, unknown>): { league?: League; category?: Category } => ({
    league: oneOf(search.league, ['HUMAN', 'MACHINE'] as const),
    category: oneOf(search.category, COMPANY_CATEGORIES),
  }),
});

const company = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.company,
  component: lazyPage(() => import('./pages/company')),
});

const token = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.token,
  component: lazyPage(() => import('./pages/token')),
});

const decision = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.decision,
  component: lazyPage(() => import('./pages/decision')),
});

const agent = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.agent,
  component: lazyPage(() => import('./pages/agent')),
});

const card = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.card,
  component: lazyPage(() => import('./pages/card')),
});

const mint = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.mint,
  component: lazyPage(() => import('./pages/mint')),
});

const create = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.create,
  component: lazyPage(() => import('./pages/create')),
});

const staking = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.staking,
  component: lazyPage(() => import('./pages/staking')),
});

const rewards = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.rewards,
  component: lazyPage(() => import('./pages/rewards')),
  // The search parser reads JSON-like values: an id of digits arrives as a number.
  validateSearch: (search: Record<string, unknown>): { company?: string } => ({
    company:
      (typeof search.company === 'string' && search.company !== '') || typeof search.company === 'number'
        ? String(search.company)
        : undefined,
  }),
});

const account = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.account,
  component: lazyPage(() => import('./pages/account')),
});

const activity = createRoute({
  getParentRoute: () => root,
  path: WEB_PAGES.activity,
  component: lazyPage(() => import('./pages/activity')),
});

const routeTree = root.addChildren([
  home,
  fortune,
  company,
  token,
  decision,
  agent,
  card,
  mint,
  create,
  staking,
  rewards,
  activity,
  account,
]);

export const router = createRouter({
  routeTree,
  scrollRestoration: true,
  // A page's code starts loading when the pointer rests on a link to it (or the link gets focus).
  defaultPreload: 'intent',
  // Data comes from TanStack Query; the router only loads code, so its own loader cache is not used.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: () => <Loading what="the page" size="page" />,
  defaultErrorComponent: RouteError,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
