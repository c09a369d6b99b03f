// The parsers of environment variables: each reads one variable and throws a ConfigError naming it and what it
// accepts. src/config.ts composes them into the Config.
import { isIP } from 'node:net';
import { USDC_DECIMALS } from '../constants.ts';

export type TrustProxy = false | number | string[];

/** Names proxy-addr (Fastify's trustProxy) knows for the private ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
export const TRUST_PROXY_HOPS_MAX = 10;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * LOG_FORMAT when set; else pretty when stdout is a terminal and NODE_ENV is not production (a person reads it), and
 * JSON lines otherwise (a collector, a file or a pipe reads them).
 */
export function logFormat(env: Env, stdoutIsTty: boolean): LogFormat {
  const raw = str(env, 'LOG_FORMAT');
  if (raw !== undefined) {
    if (!(LOG_FORMATS as readonly string[]).includes(raw)) {
      throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${raw}"`);
    }
    return raw as LogFormat;
  }
  return stdoutIsTty && str(env, 'NODE_ENV') !== 'production' ? 'pretty' : 'json';
}

export function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw))
    throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/**
 * TRUST_PROXY: unset, `false` or `0` trusts no proxy; `1`-`10` trusts that many hops in front (the client is the
 * address that many entries from the right of X-Forwarded-For); a comma-separated list of addresses, CIDR ranges or
 * proxy-addr's names (loopback, linklocal, uniquelocal) trusts those proxies only. `true` is refused: it takes the
 * left-most X-Forwarded-For entry, which the client writes itself behind any proxy that appends.
 */
export function trustProxy(env: Env): TrustProxy {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') {
    throw new ConfigError(
      'TRUST_PROXY=true would trust any X-Forwarded-For, which every client can forge: give the number of proxies in front of the service (e.g. TRUST_PROXY=1) or their addresses/CIDR ranges (e.g. TRUST_PROXY=10.0.0.0/8)',
    );
  }
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 0, TRUST_PROXY_HOPS_MAX);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const bitsOk =
      bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32) && rest.length === 0);
    if (!PROXY_RANGE_NAMES.includes(entry) && (family === 0 || !bitsOk)) {
      throw new ConfigError(
        `TRUST_PROXY must be false, a number of proxy hops (1-${TRUST_PROXY_HOPS_MAX}), or a comma-separated list of proxy addresses, CIDR ranges or ${PROXY_RANGE_NAMES.join('/')}; "${entry}" is none of these`,
      );
    }
  }
  return entries;
}

export function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(', ')}), got an unparsable value`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use one of ${protocols.join(', ')}, got ${parsed.protocol}`);
  }
  return raw;
}

/** A wei amount as a decimal string, below 2^128 (the distributor stores an epoch's pool as a uint128). */
/** A whole amount too big for a JS number (wei, gas), exact as a bigint. */
export function wei(
  env: Env,
  name: string,
  fallback: bigint,
  unit = 'wei',
  limit = 2n ** 128n,
  limitText = '2^128',
): bigint {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,39}$/.test(raw) || BigInt(raw) >= limit) {
    throw new ConfigError(
      `${name} must be a whole number of ${unit} (decimal digits, below ${limitText}), got "${raw}"`,
    );
  }
  return BigInt(raw);
}

/** A score floor in whole USDC (at least 1: the money scale divides by it), as base units. */
export function usdcFloor(env: Env, name: string, fallback: number): bigint {
  return BigInt(int(env, name, fallback, 1, 1_000_000_000_000)) * 10n ** BigInt(USDC_DECIMALS);
}

export function privateKey(env: Env, name: string): `0x${string}` | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  // Never echo the value: it is a secret.
  if (!/^0x[0-9a-fA-F]{64}$/.test(raw)) throw new ConfigError(`${name} must be 0x followed by 64 hex characters`);
  return raw as `0x${string}`;
}
