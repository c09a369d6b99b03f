// The secrets of a local development platform. `npm start` on its embedded defaults (no CHAIN_RPC_URL, not
// production) has no CRON_SECRET or ADMIN_SECRET, so nothing could call the cron or admin routes; it generates each
// into DATA_DIR (cron-secret, admin-secret; mode 0600, like the wallet seed) and keeps them across starts, so a local
// tool run by the same user (`npm run demo`, `npm run cli -- api-keys ...`) can read them. A configured secret always
// wins, and production never generates one.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { createFileOnce } from '../../files.ts';

export const DEV_CRON_SECRET_FILE = 'cron-secret';
export const DEV_ADMIN_SECRET_FILE = 'admin-secret';

/** The file's secret, made first when missing; undefined where a secret must come from the configuration. */
function developmentSecret(config: Config, configured: string | undefined, name: string): string | undefined {
  if (configured || config.nodeEnv === 'production' || config.chainRpcUrl) return undefined;
  const file = path.join(config.dataDir, name);
  const stored = readDevelopmentSecret(config.dataDir, name);
  if (stored) return stored;
  return createFileOnce(file, `${randomBytes(32).toString('base64url')}\n`, 0o600).trim();
}

/** The secret a local service keeps in `dataDir`, if any (read by local tools; never created here). */
export function readDevelopmentSecret(dataDir: string, name: string): string | undefined {
  const file = path.join(dataDir, name);
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').trim() || undefined;
}

export const developmentCronSecret = (config: Config) =>
  developmentSecret(config, config.cronSecret, DEV_CRON_SECRET_FILE);
export const developmentAdminSecret = (config: Config) =>
  developmentSecret(config, config.adminSecret, DEV_ADMIN_SECRET_FILE);
