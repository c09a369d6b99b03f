// The kinds of setting, one parser each: a kind reads one variable's text and throws a ConfigError naming the
// variable and what it accepts. The table of settings (config/settings.ts) gives each variable its kind.
import { isIP } from 'node:net';
import { getAddress } from 'viem';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** A variable's text, trimmed; undefined when unset or blank. */
export function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** How one kind of setting reads its text (never blank: an unset or blank variable takes the setting's default). */
export interface Kind<T> {
  /** What the kind accepts, in words (the settings' docs). */
  readonly accepts: string;
  /** Throws a ConfigError naming `name` and the bound when `raw` is not of the kind. */
  parse(raw: string, name: string): T;
}

/** A whole number from `min` to `max`. */
export function int(min: number, max: number): Kind<number> {
  return {
    accepts: `a whole number from ${min} to ${max}`,
    parse(raw, name) {
      if (!/^\d+$/.test(raw)) {
        throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`);
      }
      const n = Number(raw);
      if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
      return n;
    },
  };
}

/** Milliseconds: a whole number from `min` to `max`. */
export const durationMs = (min: number, max: number): Kind<number> => ({
  ...int(min, max),
  accepts: `milliseconds from ${min} to ${max}`,
});

/** A whole amount too big for a JS number (wei, gas, micro-USD), exact as a bigint, below `limit`. */
export function bigint(unit: string, limit = 2n ** 128n, limitText = '2^128'): Kind<bigint> {
  return {
    accepts: `a whole number of ${unit} below ${limitText}`,
    parse(raw, name) {
      if (!/^\d{1,39}$/.test(raw) || BigInt(raw) >= limit) {
        throw new ConfigError(
          `${name} must be a whole number of ${unit} (decimal digits, below ${limitText}), got "${raw}"`,
        );
      }
      return BigInt(raw);
    },
  };
}

/** One of a few words. */
export function oneOf<const V extends readonly string[]>(values: V): Kind<V[number]> {
  return {
    accepts: `one of ${values.join(', ')}`,
    parse(raw, name) {
      if (!values.includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
      return raw as V[number];
    },
  };
}

/** `true` or `false`. */
export const bool: Kind<boolean> = {
  accepts: 'true or false',
  parse(raw, name) {
    if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be "true" or "false", got "${raw}"`);
    return raw === 'true';
  },
};

/** A URL of one of `protocols` (e.g. `http:`), as given. */
export function url(protocols: readonly string[]): Kind<string> {
  return {
    accepts: `a URL (${protocols.join(', ')})`,
    parse(raw, name) {
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
    },
  };
}
export const HTTP_URL = url(['http:', 'https:']);

/** An account address, checksummed (EIP-55) whatever the case it was given in. */
export const address: Kind<`0x${string}`> = {
  accepts: 'a 0x-prefixed address of 40 hex characters',
  parse(raw, name) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) {
      throw new ConfigError(`${name} must be an address, 0x followed by 40 hex characters, got "${raw}"`);
    }
    return getAddress(raw);
  },
};

/** A private key: 0x and 64 hex characters. A secret: its value is never echoed. */
export const privateKey: Kind<`0x${string}`> = {
  accepts: '0x followed by 64 hex characters',
  parse(raw, name) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(raw)) throw new ConfigError(`${name} must be 0x followed by 64 hex characters`);
    return raw as `0x${string}`;
  },
};

/**
 * Free text; with `pattern`, text that matches it, refused with `${name} must be ${rule}` (the value is never echoed:
 * the kind serves secrets too).
 */
export function text(pattern?: RegExp, rule?: string): Kind<string> {
  return {
    accepts: rule ?? 'text',
    parse(raw, name) {
      if (pattern && !pattern.test(raw)) throw new ConfigError(`${name} must be ${rule}`);
      return raw;
    },
  };
}
/** Text sent as an HTTP header value: printable ASCII, at most 100 characters. */
export const headerText = text(/^[\x20-\x7e]{1,100}$/, 'printable ASCII, at most 100 characters');

/**
 * A comma-separated list: of `values` only when given (refused as not a subset of them), each entry trimmed; with
 * `max`, blank entries and repeats dropped and at most `max` kept, each checked by `item`.
 */
export function list<const V extends string = string>(options: {
  values?: readonly V[];
  max?: number;
  item?: (entry: string, name: string) => void;
}): Kind<V[]> {
  const { values, max, item } = options;
  return {
    accepts: values
      ? `a comma-separated subset of ${values.join(',')}`
      : `a comma-separated list${max ? ` of at most ${max}` : ''}`,
    parse(raw, name) {
      let entries = raw.split(',').map((s) => s.trim());
      if (max !== undefined) entries = [...new Set(entries.filter((e) => e !== ''))];
      if (max !== undefined && entries.length > max) {
        throw new ConfigError(`${name} names ${entries.length} entries; at most ${max}`);
      }
      for (const entry of entries) {
        if (values && !(values as readonly string[]).includes(entry)) {
          throw new ConfigError(`${name} must be a comma-separated subset of ${values.join(',')}, got "${entry}"`);
        }
        item?.(entry, name);
      }
      return entries as V[];
    },
  };
}

/** A kind of its own (a format only one setting has), parsed by `parse`. */
export const custom = <T>(accepts: string, parse: (raw: string, name: string) => T): Kind<T> => ({ accepts, parse });

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export type TrustProxy = false | number | string[];
/** Names proxy-addr (Fastify's trustProxy) knows for the private ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
export const TRUST_PROXY_HOPS_MAX = 10;

/**
 * TRUST_PROXY: `false` or `0` trusts no proxy; `1`-`10` trusts that many hops in front (the client is the address that
 * many entries from the right of X-Forwarded-For); a comma-separated list of addresses, CIDR ranges or proxy-addr's
 * names (loopback, linklocal, uniquelocal) trusts those proxies only. `true` is refused: it takes the left-most
 * X-Forwarded-For entry, which the client writes itself behind any proxy that appends.
 */
export const trustProxy = custom<TrustProxy>('false, a number of hops, or proxy addresses/CIDR ranges', (raw, name) => {
  if (raw === 'false' || raw === '0') return false;
  if (raw === 'true') {
    throw new ConfigError(
      `${name}=true would trust any X-Forwarded-For, which every client can forge: give the number of proxies in front of the service (e.g. ${name}=1) or their addresses/CIDR ranges (e.g. ${name}=10.0.0.0/8)`,
    );
  }
  if (/^\d+$/.test(raw)) return int(0, TRUST_PROXY_HOPS_MAX).parse(raw, name) || false;
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [addr, bits, ...rest] = entry.split('/');
    const family = isIP(addr ?? '');
    const bitsOk =
      bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32) && rest.length === 0);
    if (!PROXY_RANGE_NAMES.includes(entry) && (family === 0 || !bitsOk)) {
      throw new ConfigError(
        `${name} must be false, a number of proxy hops (1-${TRUST_PROXY_HOPS_MAX}), or a comma-separated list of proxy addresses, CIDR ranges or ${PROXY_RANGE_NAMES.join('/')}; "${entry}" is none of these`,
      );
    }
  }
  return entries;
});

/**
 * One row of the table of settings: the variable's kind, its default (unset: none, or one the configuration derives
 * from other settings, said in `defaultDoc`), and its docs: README's environment table is generated from the rows.
 */
export interface Setting<T = unknown, D extends T | undefined = T | undefined> {
  readonly kind: Kind<T>;
  readonly default?: D;
  /** README's default cell when the default is not the value itself (derived, or worth a word). */
  readonly defaultDoc?: string;
  /** README's meaning cell; absent for a setting documented in the row of `docWith`. */
  readonly doc?: string;
  /** The setting whose README row also names this one. */
  readonly docWith?: string;
  /** Private keys, seeds, tokens, API keys: never printed, logged or echoed in an error. */
  readonly secret?: boolean;
  /** The variables of a row that stands for several (LLM_<PROVIDER>_API_KEY); the row's own name otherwise. */
  readonly names?: readonly string[];
  /** Read outside the configuration (by the command or library named), not into Config. */
  readonly readBy?: string;
}

/** A row of the table, its value's type inferred from its kind and whether it has a default. */
export const setting = <T, D extends T | undefined = undefined>(row: Setting<T, D> & { kind: Kind<T> }) => row;

/** The value a row reads: its kind's, or undefined too when it has no default. */
export type ValueOf<S> = S extends Setting<infer T, infer D> ? (undefined extends D ? T | undefined : T) : never;
