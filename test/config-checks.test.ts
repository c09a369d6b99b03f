// The named rules that tie settings to each other (src/config/checks.ts), each on its own: broken, held, and the
// one setting that decides it.
import { describe, expect, it } from 'vitest';
import { CONFIG_CHECKS, checkConfig } from '../src/config/checks.ts';
import { ConfigError } from '../src/config.ts';

const held = {
  chainRpcUrl: 'https://rpc.example',
  platformPrivateKey: `0x${'11'.repeat(32)}` as const,
  contractsFile: 'contracts.json',
  llmTimeoutMs: 30_000,
  llmMaxRetries: 2,
  roundStaleMs: 240_001,
  eventRetentionMs: 3_600_000,
  eventBackfillRetentionMs: 3_600_000,
  llmStream: { enabled: false, firstTokenMs: 30_000, maxMs: 60_000 },
  nodeEnv: 'production',
  webhookAllowLoopback: false,
  sseHeartbeatMs: 30_000,
};

describe('the configuration rules', () => {
  it('all hold for a configuration that keeps them, and with no chain of its own', () => {
    for (const [name, check] of Object.entries(CONFIG_CHECKS)) expect(check(held), name).toBeUndefined();
    const local = { ...held, chainRpcUrl: undefined, platformPrivateKey: undefined, contractsFile: undefined };
    expect(() => checkConfig(local)).not.toThrow();
  });

  it('each is broken by its own setting, and names it', () => {
    expect(CONFIG_CHECKS.platformKeyWithChain!({ ...held, platformPrivateKey: undefined })).toMatch(
      /^PLATFORM_PRIVATE_KEY is required/,
    );
    expect(CONFIG_CHECKS.contractsFileWithChain!({ ...held, contractsFile: undefined })).toMatch(
      /^CONTRACTS_FILE is required/,
    );
    expect(CONFIG_CHECKS.staleRoundOutlastsModelCall!({ ...held, roundStaleMs: 240_000 })).toMatch(
      /^ROUND_STALE_MS \(240000\) must be more than twice the longest model call/,
    );
    // The backfill keeps at least the stream's window: equal holds (above), a millisecond less breaks it.
    expect(CONFIG_CHECKS.backfillOutlastsStream!({ ...held, eventBackfillRetentionMs: 3_599_999 })).toMatch(
      /^EVENT_BACKFILL_RETENTION_MS \(3599999\) must be at least EVENT_RETENTION_MS \(3600000\)/,
    );
    const stream = { enabled: false, firstTokenMs: 60_001, maxMs: 60_000 };
    expect(CONFIG_CHECKS.firstTokenWithinStream!({ ...held, llmStream: stream })).toBe(
      'LLM_FIRST_TOKEN_MS (60001) must be at most LLM_STREAM_MAX_MS (60000)',
    );
    expect(CONFIG_CHECKS.noLoopbackWebhooksInProduction!({ ...held, webhookAllowLoopback: true })).toMatch(
      /^WEBHOOK_ALLOW_LOOPBACK=true is refused in production/,
    );
    expect(
      CONFIG_CHECKS.noLoopbackWebhooksInProduction!({ ...held, webhookAllowLoopback: true, nodeEnv: 'test' }),
    ).toBeUndefined();
    // No heartbeat (0) or one at least a second apart; 999 ms is neither.
    expect(CONFIG_CHECKS.heartbeatNoneOrSlow!({ ...held, sseHeartbeatMs: 0 })).toBeUndefined();
    expect(CONFIG_CHECKS.heartbeatNoneOrSlow!({ ...held, sseHeartbeatMs: 1000 })).toBeUndefined();
    expect(CONFIG_CHECKS.heartbeatNoneOrSlow!({ ...held, sseHeartbeatMs: 999 })).toBe(
      'SSE_HEARTBEAT_MS must be 0 (no heartbeat) or at least 1000, got 999',
    );
  });

  it('checkConfig throws the first broken rule as a ConfigError', () => {
    const broken = { ...held, platformPrivateKey: undefined, contractsFile: undefined };
    expect(() => checkConfig(broken)).toThrow(ConfigError);
    expect(() => checkConfig(broken)).toThrow(/^PLATFORM_PRIVATE_KEY is required/);
  });
});
