// The app's routes (TanStack Router): typed paths, path parameters and search parameters, the scroll position
// restored on Back and Forward, and every page but the Fortune List in a chunk of its own, loaded when first opened
// or when a link to it is hovered or focused. The service answers index.html for every app path, so deep links and
// refreshes land here.
import { useQuery } from '@tanstack/react-query';
import {
  createRootRoute,
  createRoute,
  createRouter,
  type ErrorComponentProps,
  Link,
  lazyRouteComponent,
  Outlet,
} from '@tanstack/react-router';
import { COMPANY_CATEGORIES } from '../../src/constants';
import { api, data } from './api';
import { Home } from './pages/home';
import { ErrorBox, Layout, Loading, Page } from './ui';
import { useChainInfo } from './wallet';

export type Category = (typeof COMPANY_CATEGORIES)[number];
export type League = 'HUMAN' | 'MACHINE';

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
        <Link to="/">Go to the Fortune List</Link>
      </p>
    </Page>
  );
}

function RouteError({ error, reset }: ErrorComponentProps) {
  return <ErrorBox error={error} retry={reset} />;
}

const root = createRootRoute({ component: Root, notFoundComponent: NotFound });

/** A search parameter's value when it is one of `allowed`; anything else in the address is dropped. */
function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return allowed.includes(value as T) ? (value as T) : undefined;
}

const home = createRoute({
  getParentRoute: () => root,
  path: '/',
  component: Home,
  validateSearch: (search: Record<string, unknown>): { league?: League; category?: Category } => ({
    league: oneOf(search.league, ['HUMAN', 'MACHINE'] as const),
    category: oneOf(search.category, COMPANY_CATEGORIES),
  }),
});

const company = createRoute({
  getParentRoute: () => root,
  path: '/companies/$id',
  component: lazyRouteComponent(() => import('./pages/company')),
});

const token = createRoute({
  getParentRoute: () => root,
  path: '/companies/$id/token',
  component: lazyRouteComponent(() => import('./pages/token')),
});

const decision = createRoute({
  getParentRoute: () => root,
  path: '/decisions/$id',
  component: lazyRouteComponent(() => import('./pages/decision')),
});

const agent = createRoute({
  getParentRoute: () => root,
  path: '/agents/$id',
  component: lazyRouteComponent(() => import('./pages/agent')),
});

const card = createRoute({
  getParentRoute: () => root,
  path: '/cards/$id',
  component: lazyRouteComponent(() => import('./pages/card')),
});

const mint = createRoute({
  getParentRoute: () => root,
  path: '/mint',
  component: lazyRouteComponent(() => import('./pages/mint')),
});

const create = createRoute({
  getParentRoute: () => root,
  path: '/create',
  component: lazyRouteComponent(() => import('./pages/create')),
});

const staking = createRoute({
  getParentRoute: () => root,
  path: '/staking',
  component: lazyRouteComponent(() => import('./pages/staking')),
});

const rewards = createRoute({
  getParentRoute: () => root,
  path: '/rewards',
  component: lazyRouteComponent(() => import('./pages/rewards')),
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
  path: '/account',
  component: lazyRouteComponent(() => import('./pages/account')),
});

const activity = createRoute({
  getParentRoute: () => root,
  path: '/activity',
  component: lazyRouteComponent(() => import('./pages/activity')),
});

const routeTree = root.addChildren([
  home,
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
  defaultPendingComponent: () => <Loading what="the page" />,
  defaultErrorComponent: RouteError,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
