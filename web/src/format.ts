// How the app writes numbers, amounts and addresses: exact decimal strings of base-unit amounts (bigint, never a
// float) with thousands separators, a token's symbol after its amount, and short addresses and hashes.
import { formatUnits } from 'viem';

/** A token as an amount names it. */
export interface Unit {
  symbol: string;
  decimals: number;
}

export const USDC: Unit = { symbol: 'USDC', decimals: 6 };

export const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** A base-unit amount as a decimal with thousands separators, exact: at most `places` decimals, except that an
 * amount below one keeps its first two significant digits rather than rounding to 0. */
export function formatAmount(value: bigint, decimals: number, places = 6): string {
  const negative = value < 0n;
  const [whole, fraction = ''] = formatUnits(negative ? -value : value, decimals).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const firstDigit = fraction.search(/[1-9]/);
  const keep = whole === '0' && firstDigit >= places ? firstDigit + 2 : places;
  const cut = fraction.slice(0, keep).replace(/0+$/, '');
  return `${negative ? '-' : ''}${grouped}${cut ? `.${cut}` : ''}`;
}

/** An amount in a unit with its symbol: `1,234.5 USDC`. */
export function amountOf(value: bigint, unit: Unit, places = 6): string {
  return `${formatAmount(value, unit.decimals, places)} ${unit.symbol}`;
}

/** A decimal string (or number) of money, shown with at most `places` decimals and thousands separators. */
export function money(value: string | number | null | undefined, places = 2): string {
  if (value === null || value === undefined || value === '') return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  const digits = Math.abs(n) > 0 && Math.abs(n) < 0.01 ? 6 : places;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits });
}
