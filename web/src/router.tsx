// A small client-side router over the History API: the routes of the app, links that do not reload the page, and
// the current route's parameters. The service answers index.html for every app path, so deep links and refreshes
// land here.
import { type AnchorHTMLAttributes, createContext, type ReactNode, useContext, useEffect, useState } from 'react';

export interface Route {
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
}

const RouteContext = createContext<Route>({ path: '/', params: {}, query: new URLSearchParams() });

export function navigate(to: string) {
  window.history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
  window.scrollTo(0, 0);
}

/** Matches `pattern` (`/companies/:id`) against `path`; the parameters, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  if (pattern === '*') return {};
  const a = pattern.split('/').filter(Boolean);
  const b = path.split('/').filter(Boolean);
  if (a.length !== b.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of a.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(b[i]!);
    else if (part !== b[i]) return undefined;
  }
  return params;
}

export function Router({ routes }: { routes: [string, (route: Route) => ReactNode][] }) {
  const [location, setLocation] = useState(() => window.location.pathname + window.location.search);
  useEffect(() => {
    const onPop = () => setLocation(window.location.pathname + window.location.search);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const [path, search = ''] = location.split('?') as [string, string?];
  for (const [pattern, render] of routes) {
    const params = match(pattern, path);
    if (params) {
      const route = { path, params, query: new URLSearchParams(search) };
      return <RouteContext.Provider value={route}>{render(route)}</RouteContext.Provider>;
    }
  }
  return null;
}

export const useRoute = () => useContext(RouteContext);

export function Link({ to, children, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a
      href={to}
      {...rest}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
