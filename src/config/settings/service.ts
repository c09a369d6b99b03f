// The service's settings: HTTP, storage, access, request limits, the chain and the wallets. Each row: the variable,
// its kind (config/parse.ts), its default and its docs (README's environment table is generated from them).
import {
  durationMs,
  HTTP_URL,
  int,
  LOG_FORMATS,
  list,
  oneOf,
  privateKey,
  setting,
  text,
  trustProxy,
  url,
} from '../parse.ts';

export const ROLE_NAMES = ['api', 'indexer', 'scheduler', 'engine', 'webhooks'] as const;
export const WALLET_PROVIDERS = ['seed', 'remote'] as const;

export const SERVICE_SETTINGS = {
  NODE_ENV: setting({
    kind: text(),
    default: 'development',
    doc: '`production` turns on the production rules (see `WALLET_MASTER_SEED`, `METRICS_TOKEN`, `WALLET_SIGNER_AUTH_HEADER`, `WEBHOOK_ALLOW_LOOPBACK`)',
  }),
  PORT: setting({ kind: int(0, 65535), default: 3000, doc: 'HTTP port' }),
  HOST: setting({ kind: text(), default: '127.0.0.1', doc: 'interface to listen on (`0.0.0.0` in a container)' }),
  BASE_URL: setting({
    kind: HTTP_URL,
    defaultDoc: '`http://localhost:$PORT`',
    doc: 'public address, used in NFT metadata and the OpenAPI servers',
  }),
  MARKETPLACE_URL: setting({ kind: HTTP_URL, defaultDoc: '`BASE_URL`', doc: "base of the cards' `external_url`" }),
  LOG_LEVEL: setting({ kind: text(), default: 'info', doc: 'pino level (`silent` … `trace`)' }),
  LOG_FORMAT: setting({
    kind: oneOf(LOG_FORMATS),
    defaultDoc: '`pretty` at a terminal outside production, else `json`',
    doc: "`pretty`: one coloured line per record for a person; `json`: pino's JSON lines for collectors. Routine lines (jobs done, chain logs applied, rounds run, streams closed) are at `debug`",
  }),
  DATA_DIR: setting({ kind: text(), default: './data', doc: 'PGlite data, local chain state and contract addresses' }),
  DATABASE_URL: setting({
    kind: url(['postgres:', 'postgresql:']),
    defaultDoc: 'unset: PGlite',
    doc: 'PostgreSQL URL (its password is never shown)',
  }),
  DATABASE_POOL_SIZE: setting({
    kind: int(2, 1000),
    default: 10,
    doc: 'connections per process (at least 2: a custody change holds one while its outbox send takes another)',
  }),
  REDIS_URL: setting({
    kind: url(['redis:', 'rediss:']),
    defaultDoc: 'unset: memory',
    doc: 'Redis for rate limits shared across replicas',
  }),
  CHAIN_RPC_URL: setting({
    kind: HTTP_URL,
    secret: true,
    defaultDoc: 'unset: local anvil',
    doc: 'RPC of a real chain; needs `PLATFORM_PRIVATE_KEY` and `CONTRACTS_FILE`. It may carry a provider key, so it is never shown',
  }),
  PUBLIC_RPC_URL: setting({
    kind: HTTP_URL,
    doc: "the RPC URL `GET /api/chain` names (wallets, `npm run demo`); never `CHAIN_RPC_URL`, which may carry a provider key. Unset, only the local chain's RPC is named",
  }),
  CHAIN_ID: setting({
    kind: int(1, 2 ** 40),
    defaultDoc: 'from the contracts file; `31337` locally',
    doc: 'checked against the contracts file',
  }),
  CONTRACTS_FILE: setting({
    kind: text(),
    defaultDoc: '`$DATA_DIR/contracts.json` locally',
    doc: 'deployed contract addresses; written by `npm run cli -- deploy`',
  }),
  PLATFORM_PRIVATE_KEY: setting({
    kind: privateKey,
    secret: true,
    defaultDoc: 'anvil account 0 locally',
    doc: 'signs platform transactions (never logged)',
  }),
  ORACLE_PRIVATE_KEY: setting({
    kind: privateKey,
    secret: true,
    defaultDoc: 'the platform key',
    doc: 'signs epoch finalization and claims (never logged)',
  }),
  DEPLOYER_PRIVATE_KEY: setting({
    kind: privateKey,
    secret: true,
    readBy: '`npm run cli -- deploy`',
    defaultDoc: 'the platform key',
    doc: 'deploys and owns the contracts ([Going live on Base](docs/operations.md#going-live-on-base))',
  }),
  EXPLORER_URL: setting({
    kind: HTTP_URL,
    defaultDoc: 'the known explorer of the chain id (Base: `https://basescan.org`), none otherwise',
    doc: 'block explorer for links; a chain without one (the local chain) gives `null` links, never relative ones',
  }),
  RPC_TIMEOUT_MS: setting({
    kind: durationMs(100, 120_000),
    default: 5000,
    doc: 'timeout of every RPC call; then 503 `CHAIN_UNAVAILABLE`',
  }),
  CRON_SECRET: setting({
    kind: text(),
    secret: true,
    defaultDoc:
      'unset: accept nothing (a local `npm start` generates each into `DATA_DIR/cron-secret` and `DATA_DIR/admin-secret`, see Demo and API keys)',
    doc: 'bearer secrets of the scheduler routes (either) and the admin routes (`ADMIN_SECRET`)',
  }),
  ADMIN_SECRET: setting({ kind: text(), secret: true, docWith: 'CRON_SECRET' }),
  METRICS_TOKEN: setting({
    kind: text(),
    secret: true,
    defaultDoc: 'unset: open (outside production)',
    doc: 'when set, `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>`; in production the API port serves it only with a token',
  }),
  METRICS_PORT: setting({
    kind: int(0, 65535),
    defaultDoc: 'unset: none',
    doc: '`GET /metrics` alone on this port: for a process without the `api` role, and in production for every process, which then serves it there only ([docs/operations.md](docs/operations.md#metrics))',
  }),
  HEALTH_RATE_LIMIT_MAX: setting({
    kind: int(1, 10_000_000),
    default: 120,
    doc: "`GET /api/health`'s own budget per client and window; its answer is probed at most once a second",
  }),
  COMPANY_PATCH_AUTH: setting({
    kind: oneOf(['signature', 'ip'] as const),
    default: 'signature',
    doc: '`ip` allows the unsigned `PATCH /api/companies/{id}`, except for a company whose agents can trade or stake (signature still required)',
  }),
  RATE_LIMIT_MAX: setting({
    kind: int(1, 10_000_000),
    default: 600,
    doc: 'requests per client IP per window, on every route (v1 requests with a valid API key count per key instead)',
  }),
  RATE_LIMIT_WINDOW_MS: setting({ kind: durationMs(1000, 86_400_000), default: 60_000, docWith: 'RATE_LIMIT_MAX' }),
  API_KEY_RATE_LIMIT_MAX: setting({
    kind: int(1, 10_000_000),
    defaultDoc: '`RATE_LIMIT_MAX`',
    doc: 'requests per API key per window on the `/api/v1` routes ([docs/api/README.md](docs/api/README.md#rate-limits))',
  }),
  TRUST_PROXY: setting({
    kind: trustProxy,
    default: false,
    doc: 'behind reverse proxies: their number (`1`) or their addresses/CIDR ranges (`10.0.0.0/8`), so the client IP comes from `X-Forwarded-For`; `true` is refused ([docs/operations.md](docs/operations.md#behind-a-proxy))',
  }),
  ROLES: setting({
    kind: list({ values: ROLE_NAMES }),
    default: [...ROLE_NAMES],
    doc: 'roles this process runs: `api` serves HTTP, `indexer` follows the chain, `scheduler` runs jobs, `engine` runs decision rounds, `webhooks` sends webhook deliveries ([docs/operations.md](docs/operations.md))',
  }),
  API_KEY_CACHE_MS: setting({
    kind: durationMs(0, 3_600_000),
    default: 10_000,
    doc: 'how long a verified API key is cached; creating or revoking a key clears it at once on every replica (a database notification)',
  }),
  WALLET_MASTER_SEED: setting({
    kind: text(),
    secret: true,
    defaultDoc:
      'generated into `$DATA_DIR/wallet-seed` in development; required when `NODE_ENV=production` with `WALLET_PROVIDER=seed`; refused with `remote`',
    doc: '0x-hex BIP-32 seed of agent wallets (never logged, never stored in the database)',
  }),
  WALLET_PROVIDER: setting({
    kind: oneOf(WALLET_PROVIDERS),
    default: 'seed',
    doc: "who holds the agent wallets' keys: `seed` derives them from `WALLET_MASTER_SEED` in the process; `remote` asks a remote signer over HTTP(S) (Web3Signer's JSON-RPC: `eth_accounts`, `eth_signTransaction`, `eth_signTypedData`), in front of a KMS, a vault or an MPC service ([docs/operations.md](docs/operations.md#agent-keys))",
  }),
  WALLET_SIGNER_URL: setting({
    kind: HTTP_URL,
    defaultDoc: 'required with `WALLET_PROVIDER=remote`',
    doc: "the signer's JSON-RPC endpoint, `http(s)://`; a `user:password@` in it is sent as basic authentication and never shown",
  }),
  WALLET_SIGNER_AUTH_HEADER: setting({
    kind: text(
      /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[ \t]*[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/,
      '"Name: value" (a header name, a colon, then printable ASCII), e.g. "Authorization: Bearer <token>"',
    ),
    secret: true,
    defaultDoc: 'none',
    doc: 'one header sent with every signer call, `Name: value` (e.g. `Authorization: Bearer <token>`); its value is never logged, stored or answered. In production it is refused over `http://` to a host other than loopback',
  }),
  WALLET_SIGNER_CA_FILE: setting({
    kind: text(),
    defaultDoc: "the system's CAs",
    doc: "PEM file of the certificate authority of an `https://` signer's certificate (a private CA)",
  }),
  WALLET_SIGNER_CLIENT_CERT_FILE: setting({
    kind: text(),
    defaultDoc: 'none',
    doc: 'PEM client certificate and key, together, for a signer that requires mutual TLS',
  }),
  WALLET_SIGNER_CLIENT_KEY_FILE: setting({ kind: text(), docWith: 'WALLET_SIGNER_CLIENT_CERT_FILE' }),
  WALLET_SIGNER_TIMEOUT_MS: setting({
    kind: durationMs(100, 120_000),
    default: 10_000,
    doc: 'how long one signer call may take (100 to 120000) before it fails as "did not answer" and the action is retried later',
  }),
  ANVIL_BIN: setting({
    kind: text(),
    readBy: 'the local chain',
    defaultDoc: "the npm package's binary (Linux x64)",
    doc: 'path of an anvil binary on other platforms',
  }),
} as const;
