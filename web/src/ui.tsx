// The pieces every page uses: the layout (navigation, wallet, chain banner), loading, empty and error states, and
// transaction links. Formatting lives in format.ts (re-exported here for the pages).
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError } from './api';
import { ErrorDetails, said } from './errors';
import { formatNumber, short } from './format';
import { NAV } from './nav';
import { WalletButton } from './wallet';

export { money, short } from './format';

export function Layout({ chainId, chainDown, children }: { chainId: number; chainDown: boolean; children: ReactNode }) {
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          ai-economy
        </Link>
        <nav aria-label="Main">
          {NAV.map(([to, label]) => (
            <Link key={to} to={to}>
              {label}
            </Link>
          ))}
        </nav>
        <WalletButton chainId={chainId} />
      </header>
      {chainDown && (
        <div className="banner" role="alert">
          The blockchain node is not answering: prices, balances and transactions are unavailable until it is back.
          Everything else keeps working.
        </div>
      )}
      <main id="main">{children}</main>
    </>
  );
}

/**
 * The size of what is loading, so its placeholder takes about the room the content will (no jump when it arrives):
 * a line of text, a few lines, a table, the price chart, or a whole page (its title and a table) before its name is
 * known.
 */
export type SkeletonSize = 'line' | 'lines' | 'table' | 'chart' | 'page';

/** A loading state: a skeleton of the content's size, announced to screen readers as "Loading the …". */
export function Loading({ what, size = 'lines' }: { what: string; size?: SkeletonSize }) {
  if (size === 'page') {
    return (
      <section className="page" aria-busy="true" aria-label={`Loading ${what}`}>
        <div className="page-head">
          <div className="skeleton skeleton-title" />
        </div>
        <output className="skeleton skeleton-table">
          <span className="sr-only">Loading {what}…</span>
        </output>
      </section>
    );
  }
  return (
    <output className={`skeleton skeleton-${size}`} aria-busy="true">
      <span className="sr-only">Loading {what}…</span>
    </output>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

export function ErrorBox({ error, retry }: { error: unknown; retry?: () => void }) {
  // The same sentence and details as every other error (errors.tsx); an API error's code is not worth a toggle here.
  const m = said(error);
  return (
    <div className="error-box" role="alert">
      <p>{m.text}</p>
      {!(error instanceof ApiError) && m.detail && <ErrorDetails detail={m.detail} />}
      {retry ? (
        <button type="button" className="secondary" onClick={retry}>
          Try again
        </button>
      ) : (
        <p>
          <Link to="/">Go to the home page</Link>
        </p>
      )}
    </div>
  );
}

/**
 * Whether trying again could help: not for an answer that says the request itself is wrong (a company that does
 * not exist, a bad id), only for a network failure, a rate limit or the service's own trouble.
 */
export const retryable = (error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429);

/** Renders a query: its loading and error states, then `children(data)`. */
export function Query<T>({
  query,
  what,
  skeleton,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  /** The size of the content, reserved while it loads. */
  skeleton?: SkeletonSize;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} size={skeleton} />;
  if (query.isError && query.data === undefined) {
    return <ErrorBox error={query.error} retry={retryable(query.error) ? () => void query.refetch() : undefined} />;
  }
  // A read that failed after one that succeeded (the service stopped, the connection dropped): what was shown stays,
  // marked as not up to date, and the page's polling brings it back on its own once the service answers again.
  if (query.isError) {
    return (
      <>
        <Stale what={what} since={query.dataUpdatedAt} />
        {children(query.data as T)}
      </>
    );
  }
  return <>{children(query.data)}</>;
}

/** "Not up to date": a read failed, and what is shown is the last one that succeeded. */
export function Stale({ what, since }: { what: string; since: number }) {
  const at = new Date(since).toLocaleTimeString(undefined, { timeStyle: 'short' });
  return (
    <output className="notice stale" data-stale>
      {`Not up to date: the service cannot be reached, so ${what} shown ${what.endsWith('s') ? 'are' : 'is'} as read at ${at}. This updates on its own when the service is back.`}
    </output>
  );
}

/** The first page the app shows keeps the browser's focus; every page opened after it takes it to its heading. */
let firstPage = true;

export function Page({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ai-economy`;
  }, [title]);
  // After a navigation, focus moves to the page's main heading, so a screen reader or keyboard user starts there.
  useEffect(() => {
    if (firstPage) {
      firstPage = false;
      return;
    }
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </section>
  );
}

/**
 * A table that scrolls sideways on a narrow screen: the scrolling box is a named region the keyboard can reach
 * (tab to it, then the arrow keys scroll it).
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled by keyboard.
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/**
 * A long hash or address shortened (`0x1234…abcd`, the whole value on hover), with a button that copies the whole
 * value: a full hash would push a phone's page wider than its screen.
 */
export function HashText({ value, label = 'hash' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1_500);
      },
      () => {},
    );
  };
  return (
    <span className="hash">
      <code title={value}>{short(value)}</code>
      <button type="button" className="copy" onClick={copy} aria-label={`Copy the ${label} ${value}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}

export function TxLink({ hash, explorer }: { hash: string; explorer: string | null }) {
  return explorer ? (
    <span className="hash">
      <a href={`${explorer}/tx/${hash}`} target="_blank" rel="noreferrer" title={hash}>
        {short(hash)}
      </a>
    </span>
  ) : (
    <HashText value={hash} label="transaction hash" />
  );
}

/**
 * Graduation progress: the market cap against the graduation market cap. A bonding curve starts from virtual reserves,
 * so an untraded token's market cap is already a share of the threshold: until its first trade it reads
 * "0% · no trade yet" (a person reads the bar as how far buyers have taken it, and none has).
 */
export function Progress({ value, label, traded = true }: { value: number; label: string; traded?: boolean }) {
  const pct = traded ? Math.max(0, Math.min(100, value)) : 0;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuenow={Math.round(pct)}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuetext={traded ? undefined : 'no trade yet'}
    >
      <div className="bar" style={{ width: `${pct}%` }} />
      <span>
        {formatNumber(pct, 1, undefined, 1)}%{!traded && ' · no trade yet'}
      </span>
    </div>
  );
}
