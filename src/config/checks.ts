// The rules of the configuration that tie settings to each other, each named, checked once every setting is read
// (a setting's own bounds are its kind's, in the table: config/settings.ts). The wallet provider's rules live with
// its settings (config/endpoints.ts).
import { SSE_HEARTBEAT_MS_MIN } from '../constants.ts';
import { ConfigError } from './parse.ts';

/** The settings the rules read (fields of Config, declared here so that config.ts alone imports this file). */
interface Settings {
  chainRpcUrl: string | undefined;
  platformPrivateKey: string | undefined;
  contractsFile: string | undefined;
  llmTimeoutMs: number;
  llmMaxRetries: number;
  llmStream?: { enabled: boolean; firstTokenMs: number; maxMs: number };
  nodeEnv?: string;
  webhookAllowLoopback?: boolean;
  sseHeartbeatMs?: number;
  roundStaleMs: number;
  eventRetentionMs: number;
  eventBackfillRetentionMs: number;
}

/** Each rule: why it holds, and the message of a configuration that breaks it (undefined when it holds). */
export const CONFIG_CHECKS: Record<string, (config: Settings) => string | undefined> = {
  /** A chain of one's own needs the key that signs the platform's writes. */
  platformKeyWithChain: (c) =>
    c.chainRpcUrl && !c.platformPrivateKey
      ? 'PLATFORM_PRIVATE_KEY is required when CHAIN_RPC_URL is set (the platform key signs on-chain writes)'
      : undefined,
  /** ... and the addresses of the contracts deployed on it. */
  contractsFileWithChain: (c) =>
    c.chainRpcUrl && !c.contractsFile
      ? 'CONTRACTS_FILE is required when CHAIN_RPC_URL is set (it names the deployed contract addresses)'
      : undefined,
  /**
   * A round's heartbeat moves at every model attempt; one call runs at most (retries + 2) attempts (a malformed
   * answer earns one more) of the timeout each (of LLM_STREAM_MAX_MS each when answers stream). The stale cut-off
   * leaves twice that, so no live round is failed.
   */
  staleRoundOutlastsModelCall: (c) => {
    const streamed = c.llmStream?.enabled === true && c.llmStream.maxMs > c.llmTimeoutMs;
    const attemptMs = streamed ? c.llmStream!.maxMs : c.llmTimeoutMs;
    const longestCallMs = attemptMs * (c.llmMaxRetries + 2);
    const name = streamed ? 'LLM_STREAM_MAX_MS' : 'LLM_TIMEOUT_MS';
    return longestCallMs * 2 >= c.roundStaleMs
      ? `ROUND_STALE_MS (${c.roundStaleMs}) must be more than twice the longest model call, ${name} x (LLM_MAX_RETRIES + 2) = ${longestCallMs} ms: raise ROUND_STALE_MS above ${longestCallMs * 2} or lower the timeout or the retries`
      : undefined;
  },
  /**
   * The backfill reads the stored events and the stream serves the last EVENT_RETENTION_MS of them: events deleted
   * sooner than the stream's window would leave a resume inside the window with nothing to serve.
   */
  backfillOutlastsStream: (c) =>
    c.eventBackfillRetentionMs < c.eventRetentionMs
      ? `EVENT_BACKFILL_RETENTION_MS (${c.eventBackfillRetentionMs}) must be at least EVENT_RETENTION_MS (${c.eventRetentionMs}): the stream serves the last EVENT_RETENTION_MS of the events the backfill keeps`
      : undefined,
  /** A streamed answer's first token comes within the longest a streamed attempt may last. */
  firstTokenWithinStream: (c) =>
    c.llmStream && c.llmStream.firstTokenMs > c.llmStream.maxMs
      ? `LLM_FIRST_TOKEN_MS (${c.llmStream.firstTokenMs}) must be at most LLM_STREAM_MAX_MS (${c.llmStream.maxMs})`
      : undefined,
  /** Webhooks never call loopback addresses in production (a receiver on loopback is a test's). */
  noLoopbackWebhooksInProduction: (c) =>
    c.webhookAllowLoopback === true && c.nodeEnv === 'production'
      ? 'WEBHOOK_ALLOW_LOOPBACK=true is refused in production: webhooks never call loopback there'
      : undefined,
  /** A heartbeat much more often than a second would cost more than the silence it breaks. */
  heartbeatNoneOrSlow: (c) =>
    c.sseHeartbeatMs !== undefined && c.sseHeartbeatMs > 0 && c.sseHeartbeatMs < SSE_HEARTBEAT_MS_MIN
      ? `SSE_HEARTBEAT_MS must be 0 (no heartbeat) or at least ${SSE_HEARTBEAT_MS_MIN}, got ${c.sseHeartbeatMs}`
      : undefined,
};

/** Throws a ConfigError with the message of the first rule `config` breaks. */
export function checkConfig(config: Settings): void {
  for (const check of Object.values(CONFIG_CHECKS)) {
    const problem = check(config);
    if (problem) throw new ConfigError(problem);
  }
}
