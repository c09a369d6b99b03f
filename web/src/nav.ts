// The main navigation: the app's header (ui.tsx Layout) and the app shell in index.html, which the build writes from
// this same list (web/vite.config.ts), so the header painted before the code arrives is the one React renders.
export const NAV = [
  ['/', 'Tokens'],
  ['/fortune', 'Fortune List'],
  ['/mint', 'Mint'],
  ['/create', 'Create'],
  ['/staking', 'Staking'],
  ['/rewards', 'Rewards'],
  ['/activity', 'Activity'],
] as const;
