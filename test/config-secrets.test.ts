// Secrets in the table of settings (src/config/settings.ts): every private key, seed, token and API key is marked
// secret, what shows a configuration (describeSettings, `npm run cli -- config`) never prints their values, and a
// refused value of a secret is never echoed in the error.
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.ts';
import { describeSettings, REDACTED, SETTINGS, settingRows } from '../src/config/settings.ts';
import { ConfigError } from '../src/config.ts';

const KEY = `0x${'ab'.repeat(32)}`;
const SECRET_NAME = /(PRIVATE_KEY|SEED|SECRET|TOKEN|API_KEY|AUTH_HEADER|HEADERS)$/;

/** An environment that sets every secret of the table to a value of its kind, each with the same marker in it. */
const MARK = 'c0ffee';
const secretsEnv = {
  PLATFORM_PRIVATE_KEY: `0x${MARK}${'1'.repeat(58)}`,
  ORACLE_PRIVATE_KEY: `0x${MARK}${'2'.repeat(58)}`,
  DEPLOYER_PRIVATE_KEY: `0x${MARK}${'3'.repeat(58)}`,
  WALLET_MASTER_SEED: `0x${MARK}${'4'.repeat(58)}`,
  CRON_SECRET: `cron-${MARK}`,
  ADMIN_SECRET: `admin-${MARK}`,
  METRICS_TOKEN: `metrics-${MARK}`,
  CHAIN_RPC_URL: `https://base.example/v2/${MARK}`,
  CONTRACTS_FILE: 'contracts.json',
  LLM_BASE_URL: 'https://openrouter.ai/api/v1',
  LLM_API_KEY: `sk-${MARK}`,
  LLM_ANTHROPIC_BASE_URL: 'https://api.anthropic.example/v1',
  LLM_ANTHROPIC_API_KEY: `sk-ant-${MARK}`,
  OTEL_EXPORTER_OTLP_HEADERS: `x-key=${MARK}`,
  DATABASE_URL: `postgres://aie:${MARK}@db:5432/aie`,
};

describe('secrets in the configuration', () => {
  it('are marked secret in the table, every variable named like one', () => {
    const names = settingRows().flatMap((row) => (row.names ?? [row.name]).map((name) => ({ name, row })));
    const unmarked = names.filter(({ name, row }) => SECRET_NAME.test(name) && !row.secret).map(({ name }) => name);
    expect(unmarked).toEqual([]);
    expect(SETTINGS.WALLET_SIGNER_AUTH_HEADER.secret).toBe(true);
    expect(SETTINGS.CHAIN_RPC_URL.secret).toBe(true); // it may carry a provider key
  });

  it('are shown as [redacted], a URL with a password hidden too, and other values as set', () => {
    const shown = describeSettings({ ...secretsEnv, PORT: '8080' });
    expect(JSON.stringify(shown)).not.toContain(MARK);
    const value = (name: string) => shown.find((s) => s.name === name)?.value;
    expect(value('PLATFORM_PRIVATE_KEY')).toBe(REDACTED);
    expect(value('LLM_ANTHROPIC_API_KEY')).toBe(REDACTED);
    expect(value('DATABASE_URL')).toBe(`postgres://aie:${REDACTED}@db:5432/aie`);
    expect(value('PORT')).toBe('8080');
    expect(shown.find((s) => s.name === 'HOST')).toEqual({ name: 'HOST', value: undefined, default: '127.0.0.1' });
  });

  it('never reach the output of `cli config`, in lines or JSON', async () => {
    for (const args of [['config'], ['config', '--json']]) {
      const lines: string[] = [];
      const code = await runCli(args, secretsEnv, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
      expect(code, lines.join('\n')).toBe(0);
      const output = lines.join('\n');
      expect(output).toContain('PLATFORM_PRIVATE_KEY');
      expect(output).toContain(REDACTED);
      expect(output).not.toContain(MARK);
    }
  });

  it('are never echoed when refused', () => {
    for (const row of settingRows().filter((r) => r.secret)) {
      for (const name of row.names ?? [row.name]) {
        const bad = `bad value ${MARK}\u00e9`;
        let message = '';
        try {
          row.kind.parse(bad, name);
        } catch (err) {
          expect(err, name).toBeInstanceOf(ConfigError);
          message = (err as Error).message;
        }
        expect(message, name).not.toContain(MARK);
      }
    }
    expect(() => row('PLATFORM_PRIVATE_KEY').parse(KEY, 'PLATFORM_PRIVATE_KEY')).not.toThrow();
  });
});

const row = (name: keyof typeof SETTINGS) => SETTINGS[name].kind;
