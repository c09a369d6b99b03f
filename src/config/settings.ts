// The table of settings: every environment variable the service reads, one row each (name, kind, default, bounds,
// docs, secret), in README's order. loadConfig (src/config.ts) reads its values from here, README's environment table
// is generated from it (npm run gen:config-docs), and what is shown of a configuration hides its secrets.
import { ConfigError, type Env, type Setting, str, type ValueOf } from './parse.ts';
import { MODEL_SETTINGS } from './settings/models.ts';
import { PLATFORM_SETTINGS } from './settings/platform.ts';
import { SERVICE_SETTINGS } from './settings/service.ts';

export const SETTINGS = { ...SERVICE_SETTINGS, ...PLATFORM_SETTINGS, ...MODEL_SETTINGS } as const;
export type SettingName = keyof typeof SETTINGS;
export type SettingValue<N extends SettingName> = ValueOf<(typeof SETTINGS)[N]>;

/** The rows as one list, each with its name. */
export const settingRows = (): Array<Setting & { name: string }> =>
  Object.entries(SETTINGS).map(([name, row]) => ({ name, ...(row as Setting) }));

/**
 * The value of one setting in `env`: its kind's reading of the variable, or its default when the variable is unset or
 * blank. `as` reads a row that stands for several variables under one of their names (LLM_OPENAI_API_KEY).
 */
export function read<N extends SettingName>(env: Env, name: N, as: string = name): SettingValue<N> {
  const row = SETTINGS[name] as Setting;
  if (as !== name && !row.names?.includes(as)) throw new ConfigError(`${as} is not a variable of ${name}`);
  const raw = str(env, as);
  return (raw === undefined ? row.default : row.kind.parse(raw, as)) as SettingValue<N>;
}

/** Whether a variable is set (not blank) in `env`. */
export const isSet = (env: Env, name: string): boolean => str(env, name) !== undefined;

export const REDACTED = '[redacted]';

/** A URL's password hidden (DATABASE_URL, WALLET_SIGNER_URL may carry one). */
function withoutPassword(value: string): string {
  try {
    const u = new URL(value);
    if (!u.password) return value;
    u.password = 'redacted';
    return u.toString().replace(':redacted@', `:${REDACTED}@`);
  } catch {
    return value;
  }
}

/** One variable as shown to a person: its value as set (a secret's as [redacted]), and its default ('' for none). */
export interface ShownSetting {
  name: string;
  value: string | undefined;
  default: string;
}

/**
 * Every variable of the table, for a person: the value `env` gives it (a secret's shown as [redacted], a URL's
 * password too), or what it defaults to. Variables the table does not know are left out. Whatever prints or logs a
 * configuration shows it through this.
 */
export function describeSettings(env: Env): ShownSetting[] {
  const shown: ShownSetting[] = [];
  for (const row of settingRows()) {
    const fallback = (
      row.defaultDoc ??
      (row.default === undefined ? '' : Array.isArray(row.default) ? row.default.join(',') : String(row.default))
    )
      .replace(/`/g, '')
      .replace(/^unset(: |$)/, '');
    const names = row.names ?? [row.name];
    const set = names.filter((name) => str(env, name) !== undefined);
    if (set.length === 0) shown.push({ name: row.name, value: undefined, default: fallback });
    for (const name of set) {
      const raw = str(env, name)!;
      shown.push({ name, value: row.secret ? REDACTED : withoutPassword(raw), default: fallback });
    }
  }
  return shown;
}
