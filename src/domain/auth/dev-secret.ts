// The scheduler secret of a local development platform. `npm start` on its embedded defaults (no CHAIN_RPC_URL, not
// production) has no CRON_SECRET, so nothing could call the cron routes; it generates one into DATA_DIR/cron-secret
// (mode 0600, like the wallet seed) and keeps it across starts, so a local tool such as `npm run demo` can read it.
// A configured CRON_SECRET always wins, and production never generates one.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { createFileOnce } from '../../files.ts';

export const DEV_CRON_SECRET_FILE = 'cron-secret';

/** The file's secret, made first when missing; undefined where a secret must come from the configuration. */
export function developmentCronSecret(config: Config): string | undefined {
  if (config.cronSecret || config.nodeEnv === 'production' || config.chainRpcUrl) return undefined;
  const file = path.join(config.dataDir, DEV_CRON_SECRET_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored) return stored;
  }
  return createFileOnce(file, `${randomBytes(32).toString('base64url')}\n`, 0o600).trim();
}
