// The web app's pages by path pattern, as its router (web/src/router.tsx) declares them: a `$name` segment is a path
// parameter. The service answers every GET outside /api with the app, and with 404 when the path is none of these
// (src/http/plugins/web.ts), so a mistyped or dead link is a 404 to a crawler or a link checker too, while the
// browser still shows the app's "Page not found".

export const WEB_PAGES = {
  home: '/',
  fortune: '/fortune',
  company: '/companies/$id',
  token: '/companies/$id/token',
  decision: '/decisions/$id',
  agent: '/agents/$id',
  card: '/cards/$id',
  mint: '/mint',
  create: '/create',
  staking: '/staking',
  rewards: '/rewards',
  account: '/account',
  activity: '/activity',
} as const;

const PATTERN = new RegExp(
  `^(?:${Object.values(WEB_PAGES)
    .map((page) => (page === '/' ? '' : page.replace(/\$[A-Za-z]+/g, '[^/]+')))
    .join('|')})/?$`,
);

/** Whether `pathname` (no query) is one of the app's pages; a trailing slash is the same page, as the router reads it. */
export function isWebPage(pathname: string): boolean {
  return PATTERN.test(pathname);
}
