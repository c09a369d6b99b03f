import { describe, expect, it } from 'vitest';
import { ConfigError, EPOCH_REWARD_POOL_LIMIT, loadConfig } from '../src/config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with nothing set', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.baseUrl).toBe('http://localhost:3000');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.chainRpcUrl).toBeUndefined();
    expect(c.rpcTimeoutMs).toBe(5000);
    expect(c.companyPatchAuth).toBe('signature');
    expect([...c.roles]).toEqual(['api', 'indexer', 'scheduler', 'engine', 'webhooks']);
  });

  it("takes an API key's rate limit from API_KEY_RATE_LIMIT_MAX, else RATE_LIMIT_MAX, within 1-10,000,000", () => {
    expect(loadConfig({}).apiKeyRateLimitMax).toBe(600);
    expect(loadConfig({ RATE_LIMIT_MAX: '50' }).apiKeyRateLimitMax).toBe(50);
    expect(loadConfig({ RATE_LIMIT_MAX: '50', API_KEY_RATE_LIMIT_MAX: '5000' }).apiKeyRateLimitMax).toBe(5000);
    expect(loadConfig({ API_KEY_RATE_LIMIT_MAX: '1' }).apiKeyRateLimitMax).toBe(1);
    expect(loadConfig({ API_KEY_RATE_LIMIT_MAX: '10000000' }).apiKeyRateLimitMax).toBe(10_000_000);
    expect(() => loadConfig({ API_KEY_RATE_LIMIT_MAX: '0' })).toThrow(/API_KEY_RATE_LIMIT_MAX must be between 1/);
    expect(() => loadConfig({ API_KEY_RATE_LIMIT_MAX: '10000001' })).toThrow(ConfigError);
  });

  it('reads PUBLIC_RPC_URL, the RPC /api/chain names instead of CHAIN_RPC_URL, as an http(s) URL', () => {
    expect(loadConfig({}).publicRpcUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_RPC_URL: 'https://rpc.example.org' }).publicRpcUrl).toBe('https://rpc.example.org');
    expect(() => loadConfig({ PUBLIC_RPC_URL: 'ws://rpc.example.org' })).toThrow(/PUBLIC_RPC_URL must use/);
    expect(() => loadConfig({ PUBLIC_RPC_URL: 'not a url' })).toThrow(/PUBLIC_RPC_URL must be a URL/);
  });

  it('reads the stream window (1 hour) and the backfill retention (2 days), the second at least the first', () => {
    expect(loadConfig({}).eventRetentionMs).toBe(3_600_000);
    expect(loadConfig({}).eventBackfillRetentionMs).toBe(172_800_000);
    const equal = loadConfig({ EVENT_RETENTION_MS: '7200000', EVENT_BACKFILL_RETENTION_MS: '7200000' });
    expect([equal.eventRetentionMs, equal.eventBackfillRetentionMs]).toEqual([7_200_000, 7_200_000]);
    expect(() => loadConfig({ EVENT_RETENTION_MS: '7200000', EVENT_BACKFILL_RETENTION_MS: '7199999' })).toThrow(
      /EVENT_BACKFILL_RETENTION_MS \(7199999\) must be at least EVENT_RETENTION_MS \(7200000\)/,
    );
    // The stream's window past the backfill's default needs the backfill raised too.
    expect(() => loadConfig({ EVENT_RETENTION_MS: '172800001' })).toThrow(ConfigError);
    expect(
      loadConfig({ EVENT_BACKFILL_RETENTION_MS: '60000', EVENT_RETENTION_MS: '60000' }).eventBackfillRetentionMs,
    ).toBe(60_000);
    expect(() => loadConfig({ EVENT_BACKFILL_RETENTION_MS: '59999' })).toThrow(/EVENT_BACKFILL_RETENTION_MS must be/);
  });

  it('strips a trailing slash from BASE_URL', () => {
    expect(loadConfig({ BASE_URL: 'https://api.example.com/' }).baseUrl).toBe('https://api.example.com');
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between 0 and 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use one of postgres:, postgresql:/],
    [{ REDIS_URL: 'not a url' }, /REDIS_URL must be a URL/],
    [{ COMPANY_PATCH_AUTH: 'none' }, /^COMPANY_PATCH_AUTH must be one of signature, ip, got "none"$/],
    [{ ROLES: 'api,web' }, /ROLES must be a comma-separated subset/],
    [{ RPC_TIMEOUT_MS: '10' }, /RPC_TIMEOUT_MS must be between 100 and 120000/],
    [{ CHAIN_RPC_URL: 'https://rpc.example' }, /PLATFORM_PRIVATE_KEY is required/],
    [
      { CHAIN_RPC_URL: 'https://rpc.example', PLATFORM_PRIVATE_KEY: `0x${'11'.repeat(32)}` },
      /CONTRACTS_FILE is required when CHAIN_RPC_URL is set/,
    ],
  ])('rejects %o with a readable message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads TRUST_PROXY as no proxy, a hop count, or a list of proxy addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10' }).trustProxy).toBe(10);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each([
    ['true', /TRUST_PROXY=true would trust any X-Forwarded-For/],
    ['11', /TRUST_PROXY must be between 0 and 10/],
    ['10.0.0.0/33', /"10.0.0.0\/33" is none of these/],
    ['proxy.example.com', /"proxy.example.com" is none of these/],
    ['10.0.0.1,', /"" is none of these/],
  ])('refuses TRUST_PROXY=%s with a readable message', (value, message) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
  });

  it('bounds EPOCH_REWARD_POOL so that ten times it fits the 96-bit pool of the distributor', () => {
    const limit = EPOCH_REWARD_POOL_LIMIT;
    expect((limit - 1n) * 10n).toBeLessThan(2n ** 96n);
    expect(limit * 10n).toBeGreaterThanOrEqual(2n ** 96n);
    expect(loadConfig({ EPOCH_REWARD_POOL: String(limit - 1n) }).epochRewardPool).toBe(limit - 1n);
    expect(() => loadConfig({ EPOCH_REWARD_POOL: String(limit) })).toThrow(/EPOCH_REWARD_POOL must be a whole number/);
  });

  it('never echoes a malformed private key', () => {
    const secret = '0xdeadbeef-not-a-key';
    try {
      loadConfig({ PLATFORM_PRIVATE_KEY: secret });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toMatch(/PLATFORM_PRIVATE_KEY must be 0x followed by 64 hex/);
      expect((err as Error).message).not.toContain(secret);
    }
  });

  it('uses the platform key as oracle key unless one is given', () => {
    const key = `0x${'11'.repeat(32)}`;
    const c = loadConfig({ CHAIN_RPC_URL: 'https://rpc.example', PLATFORM_PRIVATE_KEY: key, CONTRACTS_FILE: 'c.json' });
    expect(c.oraclePrivateKey).toBe(key);
  });

  it('CHAIN_FINALITY_DEPTH: 12 locally, the finalized tag (undefined) with CHAIN_RPC_URL unless set, bounded 1..100000', () => {
    expect(loadConfig({}).chainFinalityDepth).toBe(12);
    const remote = {
      CHAIN_RPC_URL: 'https://rpc.example',
      PLATFORM_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
      CONTRACTS_FILE: 'c.json',
    };
    expect(loadConfig(remote).chainFinalityDepth).toBeUndefined();
    expect(loadConfig({ ...remote, CHAIN_FINALITY_DEPTH: '900' }).chainFinalityDepth).toBe(900);
    expect(loadConfig({ CHAIN_FINALITY_DEPTH: '1' }).chainFinalityDepth).toBe(1);
    expect(loadConfig({ CHAIN_FINALITY_DEPTH: '100000' }).chainFinalityDepth).toBe(100_000);
    expect(() => loadConfig({ CHAIN_FINALITY_DEPTH: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ CHAIN_FINALITY_DEPTH: '100001' })).toThrow(ConfigError);
  });
});

describe('WALLET_PROVIDER and the remote signer', () => {
  const remote = { WALLET_PROVIDER: 'remote', WALLET_SIGNER_URL: 'https://signer.internal:9000' };

  it('keeps agent keys derived from the seed unless told otherwise, and reads the signer with remote', () => {
    expect(loadConfig({})).toMatchObject({ walletProvider: 'seed', walletSigner: undefined });
    expect(loadConfig(remote)).toMatchObject({
      walletProvider: 'remote',
      walletSigner: { url: 'https://signer.internal:9000', authHeader: undefined, timeoutMs: 10_000 },
    });
    const c = loadConfig({ ...remote, WALLET_SIGNER_AUTH_HEADER: 'X-Api-Key:  abc def' });
    expect(c.walletSigner?.authHeader).toEqual({ name: 'X-Api-Key', value: 'abc def' });
  });

  it('bounds WALLET_SIGNER_TIMEOUT_MS to 100..120000', () => {
    expect(loadConfig({ ...remote, WALLET_SIGNER_TIMEOUT_MS: '100' }).walletSigner?.timeoutMs).toBe(100);
    expect(loadConfig({ ...remote, WALLET_SIGNER_TIMEOUT_MS: '120000' }).walletSigner?.timeoutMs).toBe(120_000);
    expect(() => loadConfig({ ...remote, WALLET_SIGNER_TIMEOUT_MS: '99' })).toThrow(
      /WALLET_SIGNER_TIMEOUT_MS must be between 100 and 120000/,
    );
    expect(() => loadConfig({ ...remote, WALLET_SIGNER_TIMEOUT_MS: '120001' })).toThrow(ConfigError);
  });

  it.each([
    [{ WALLET_PROVIDER: 'mpc' }, /^WALLET_PROVIDER must be one of seed, remote, got "mpc"$/],
    [{ WALLET_PROVIDER: 'remote' }, /^WALLET_PROVIDER=remote needs WALLET_SIGNER_URL/],
    [{ ...remote, WALLET_SIGNER_URL: 'ftp://signer' }, /WALLET_SIGNER_URL must use one of http:, https:/],
    [{ WALLET_SIGNER_URL: 'https://signer' }, /^WALLET_SIGNER_URL is set but WALLET_PROVIDER is not remote/],
    [
      { ...remote, WALLET_MASTER_SEED: `0x${'ab'.repeat(32)}` },
      /^WALLET_MASTER_SEED is set but WALLET_PROVIDER=remote/,
    ],
    [{ ...remote, WALLET_SIGNER_URL: 'http://signer', WALLET_SIGNER_CA_FILE: 'ca.pem' }, /apply to https:\/\/ only/],
    [{ ...remote, WALLET_SIGNER_CLIENT_CERT_FILE: 'c.pem' }, /set both or neither/],
    [{ ...remote, WALLET_SIGNER_CLIENT_KEY_FILE: 'k.pem' }, /set both or neither/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('refuses a malformed auth header without echoing it', () => {
    for (const value of ['Bearer-only-s3cret', 'Bad Name: s3cret', 'Authorization: s3cret\u00e9']) {
      try {
        loadConfig({ ...remote, WALLET_SIGNER_AUTH_HEADER: value });
        expect.unreachable();
      } catch (err) {
        expect((err as Error).message).toMatch(/^WALLET_SIGNER_AUTH_HEADER must be "Name: value"/);
        expect((err as Error).message).not.toContain('s3cret');
      }
    }
  });

  it('refuses in production a credential sent in clear to another host, and allows it to loopback or over TLS', () => {
    const prod = { ...remote, NODE_ENV: 'production', WALLET_SIGNER_AUTH_HEADER: 'Authorization: Bearer t' };
    expect(() => loadConfig({ ...prod, WALLET_SIGNER_URL: 'http://signer.internal:9000' })).toThrow(
      /credential would cross the network in clear; use https:\/\//,
    );
    expect(() =>
      loadConfig({ ...prod, WALLET_SIGNER_AUTH_HEADER: '', WALLET_SIGNER_URL: 'http://u:p@signer.internal' }),
    ).toThrow(/in clear/);
    expect(loadConfig({ ...prod, WALLET_SIGNER_URL: 'http://127.0.0.1:9000' }).walletProvider).toBe('remote');
    expect(loadConfig(prod).walletProvider).toBe('remote');
    // Without a credential, plain HTTP to a signer on a private network is the operator's choice.
    expect(
      loadConfig({ ...remote, NODE_ENV: 'production', WALLET_SIGNER_URL: 'http://signer:9000' }).walletSigner?.url,
    ).toBe('http://signer:9000');
  });
});
