// The command line (`npm run cli -- <command>`): API keys, database migrations, and the deployment of the contracts
// to a chain (src/chain/deploy-command.ts). The database commands never start the chain and use the database the
// server is configured with: PostgreSQL directly; the embedded PGlite through the running
// service's admin routes when a service holds it (PGlite admits one process), else directly. It says which it used.
// Exit codes: 0 ok, 1 failure, 2 usage or configuration error.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DeployRefused } from './chain/deploy.ts';
import { runDeploy } from './chain/deploy-command.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { type ApiKeyRecord, createApiKey, listApiKeys, revokeApiKey } from './domain/auth/api-keys.ts';
import { DEV_ADMIN_SECRET_FILE, readDevelopmentSecret } from './domain/auth/dev-secret.ts';
import { readServiceFile } from './service-file.ts';

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  api-keys create --name NAME   create an API key (name 1-100 characters); the key is printed once, on the
                                last line, and only its sha256 is stored
  api-keys list [--json]        list the keys: id, name, prefix, created, revoked
  api-keys revoke ID            revoke a key; running servers stop accepting it within API_KEY_CACHE_MS
  migrate                       apply the database migrations and exit
  deploy [--usdc ADDRESS] [--pool-manager ADDRESS] [--fee-recipient ADDRESS]
                                deploy the platform's contracts to the chain of CHAIN_RPC_URL (deployer:
                                DEPLOYER_PRIVATE_KEY, else PLATFORM_PRIVATE_KEY) and write CONTRACTS_FILE and,
                                beside it, the compiler's standard-JSON input; run again, it resumes an
                                interrupted deployment and never deploys a contract twice. The chain's own USDC
                                and v4 PoolManager are used (known on Base; else pass them); mocks only on
                                chain 31337. See docs/operations.md, "Going live on Base".
  help, --help, -h              show this help

The database is the server's: DATABASE_URL when set, otherwise the embedded PGlite under $DATA_DIR/pg
(DATA_DIR defaults to ./data). While \`npm start\` runs on that data directory, the api-keys commands ask the
running service (its admin routes, with ADMIN_SECRET or the development secret in $DATA_DIR/admin-secret),
since PGlite admits one process; otherwise they open the database themselves. They never create an empty
embedded database: start the service once, or point DATA_DIR at the service's. Each command says which
database it used.

Exit codes: 0 ok, 1 failure, 2 usage or configuration error.`;

const NAME_MAX = 100;

/** A wrong command line: reported with a pointer to --help, exit code 2. */
class UsageError extends Error {}
/** A failure to report as one line, without a stack (exit code 1). */
class CliFailure extends Error {}

interface Parsed {
  positionals: string[];
  name: string | undefined;
  json: boolean;
  help: boolean;
  usdc: string | undefined;
  poolManager: string | undefined;
  feeRecipient: string | undefined;
}

function parse(argv: string[]): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        usdc: { type: 'string' },
        'pool-manager': { type: 'string' },
        'fee-recipient': { type: 'string' },
      },
    });
    return {
      positionals,
      name: values.name,
      json: values.json ?? false,
      help: values.help ?? false,
      usdc: values.usdc,
      poolManager: values['pool-manager'],
      feeRecipient: values['fee-recipient'],
    };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Checks the arguments after the command words (`first` is the index of the first one) and the options. */
function expectArgs(p: Parsed, command: string, first: number, count: number, allowed: ('name' | 'json')[] = []) {
  const args = p.positionals.slice(first);
  if (args.length > count) throw new UsageError(`${command}: unexpected argument ${args[count]}`);
  if (args.length < count) throw new UsageError(`${command}: missing argument`);
  if (p.name !== undefined && !allowed.includes('name')) throw new UsageError(`${command} takes no --name`);
  if (p.json && !allowed.includes('json')) throw new UsageError(`${command} takes no --json`);
  if (command !== 'deploy' && (p.usdc ?? p.poolManager ?? p.feeRecipient) !== undefined) {
    throw new UsageError(`${command} takes no --usdc, --pool-manager or --fee-recipient`);
  }
}

async function withDatabase<T>(config: Config, run: (database: Database) => Promise<T>): Promise<T> {
  const dataDir = path.join(config.dataDir, 'pg');
  let database: Database;
  try {
    database = await openDatabase({
      url: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : dataDir,
      poolSize: 1,
    });
  } catch (err) {
    const reason = (err as Error).message || String(err);
    // The URL may hold a password: never echo it.
    throw new CliFailure(
      config.databaseUrl
        ? `cannot open the database of DATABASE_URL: ${reason}`
        : `cannot open the embedded database under ${dataDir}: ${reason}. PGlite allows one process at a time on a data directory: stop the server (or another CLI) using it, then try again.`,
    );
  }
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}

function table(records: ApiKeyRecord[]): string {
  const rows = [
    ['ID', 'NAME', 'PREFIX', 'CREATED', 'REVOKED'],
    ...records.map((r) => [r.id, r.name, r.prefix, r.createdAt.toISOString(), r.revokedAt?.toISOString() ?? '-']),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) => row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  '))
    .join('\n');
}

/** A URL with its password hidden, for output. */
function redactedUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL (not a URL)';
  }
}

/** What the api-keys commands act on, and a line saying which database that is. */
interface ApiKeyStore {
  describe: string;
  create(name: string): Promise<ApiKeyRecord & { key: string }>;
  list(): Promise<ApiKeyRecord[]>;
  revoke(id: string): Promise<boolean>;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/live`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

type KeyJson = Omit<ApiKeyRecord, 'createdAt' | 'revokedAt'> & { createdAt: string; revokedAt: string | null };
const recordOf = (k: KeyJson): ApiKeyRecord => ({
  ...k,
  createdAt: new Date(k.createdAt),
  revokedAt: k.revokedAt ? new Date(k.revokedAt) : null,
});

/** The running service's admin routes, authorized with its admin secret. */
function serviceStore(url: string, secret: string, describe: string): ApiKeyStore {
  const call = async (method: string, route: string, body?: unknown) => {
    let res: Response;
    try {
      res = await fetch(`${url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${secret}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new CliFailure(`the service at ${url} did not answer: ${(err as Error).message}`);
    }
    const json = (await res.json().catch(() => ({}))) as { data?: unknown; error?: { code: string; message: string } };
    return { status: res.status, json };
  };
  const fail = (r: { status: number; json: { error?: { message: string } } }) =>
    new CliFailure(
      r.status === 401
        ? `the service at ${url} refused the admin secret: set ADMIN_SECRET to the service's`
        : `the service at ${url} answered ${r.status}: ${r.json.error?.message ?? 'no message'}`,
    );
  return {
    describe,
    async create(name) {
      const r = await call('POST', '/api/admin/api-keys', { name });
      if (r.status !== 201) throw fail(r);
      const data = r.json.data as KeyJson & { key: string };
      return { ...recordOf(data), key: data.key };
    },
    async list() {
      const r = await call('GET', '/api/admin/api-keys');
      if (r.status !== 200) throw fail(r);
      return (r.json.data as KeyJson[]).map(recordOf);
    },
    async revoke(id) {
      const r = await call('DELETE', `/api/admin/api-keys/${encodeURIComponent(id)}`);
      if (r.status === 404) return false;
      if (r.status !== 200) throw fail(r);
      return true;
    },
  };
}

/**
 * Runs `use` with the store of the configured database: PostgreSQL directly; the embedded PGlite through the
 * service holding it, or directly when none does. Never creates an embedded database.
 */
async function withApiKeyStore<T>(config: Config, use: (store: ApiKeyStore) => Promise<T>): Promise<T> {
  const direct = (describe: string) =>
    withDatabase(config, (d) =>
      use({
        describe,
        create: (name) => createApiKey(d.db, name),
        list: () => listApiKeys(d.db),
        revoke: (id) => revokeApiKey(d.db, id),
      }),
    );
  if (config.databaseUrl) return direct(`PostgreSQL at ${redactedUrl(config.databaseUrl)} (DATABASE_URL)`);
  const dir = path.join(config.dataDir, 'pg');
  const service = readServiceFile(config.dataDir);
  if (service && (await answers(service.url))) {
    const secret = config.adminSecret ?? readDevelopmentSecret(config.dataDir, DEV_ADMIN_SECRET_FILE);
    if (!secret) {
      throw new CliFailure(
        `the service at ${service.url} holds the embedded database under ${dir}: set ADMIN_SECRET to its admin secret to manage keys through it`,
      );
    }
    return use(
      serviceStore(
        service.url,
        secret,
        `the embedded PGlite under ${dir}, through the running service at ${service.url}`,
      ),
    );
  }
  if (!existsSync(dir)) {
    throw new CliFailure(
      `no database under ${dir} (DATA_DIR=${config.dataDir}). Start the service once (npm start creates it), or set DATA_DIR to the service's data directory, or DATABASE_URL.`,
    );
  }
  return direct(`the embedded PGlite under ${dir}`);
}

type Command =
  | { kind: 'help' }
  | { kind: 'migrate' }
  | { kind: 'deploy'; usdc?: string; poolManager?: string; feeRecipient?: string }
  | { kind: 'api-keys create'; name: string }
  | { kind: 'api-keys list'; json: boolean }
  | { kind: 'api-keys revoke'; id: string };

/** The command a command line asks for; every usage error is found here, before any configuration is read. */
function commandOf(p: Parsed): Command {
  const [command, sub] = p.positionals;
  if (p.help || command === 'help') return { kind: 'help' };
  if (command === undefined) throw new UsageError('no command given');
  if (command === 'migrate') {
    expectArgs(p, 'migrate', 1, 0);
    return { kind: 'migrate' };
  }
  if (command === 'deploy') {
    expectArgs(p, 'deploy', 1, 0);
    return { kind: 'deploy', usdc: p.usdc, poolManager: p.poolManager, feeRecipient: p.feeRecipient };
  }
  if (command !== 'api-keys') throw new UsageError(`unknown command ${command}`);
  switch (sub) {
    case 'create': {
      expectArgs(p, 'api-keys create', 2, 0, ['name']);
      if (p.name === undefined) throw new UsageError('api-keys create: --name NAME is required');
      const name = p.name.trim();
      if (name.length === 0 || name.length > NAME_MAX) {
        throw new UsageError(`api-keys create: the name must be 1-${NAME_MAX} characters`);
      }
      return { kind: 'api-keys create', name };
    }
    case 'list':
      expectArgs(p, 'api-keys list', 2, 0, ['json']);
      return { kind: 'api-keys list', json: p.json };
    case 'revoke': {
      expectArgs(p, 'api-keys revoke', 2, 1);
      const id = p.positionals[2]!;
      if (id.trim() === '') throw new UsageError('api-keys revoke: the ID is empty');
      return { kind: 'api-keys revoke', id };
    }
    case undefined:
      throw new UsageError('api-keys: expected create, list or revoke');
    default:
      throw new UsageError(`api-keys: unknown subcommand ${sub} (expected create, list or revoke)`);
  }
}

async function execute(
  command: Exclude<Command, { kind: 'help' }>,
  config: Config,
  env: Record<string, string | undefined>,
  out: (line: string) => void,
  err: (line: string) => void,
) {
  switch (command.kind) {
    case 'deploy': {
      try {
        await runDeploy(config, env, command, out);
      } catch (e) {
        if (e instanceof DeployRefused) throw new CliFailure(e.message);
        throw e;
      }
      return;
    }
    case 'migrate': {
      // Opening the database applies the migrations (under an advisory lock on PostgreSQL).
      const kind = await withDatabase(config, async (d) => d.kind);
      out(
        kind === 'pglite'
          ? `Database migrated (embedded PGlite under ${path.join(config.dataDir, 'pg')}).`
          : 'Database migrated (PostgreSQL).',
      );
      return;
    }
    case 'api-keys create': {
      const created = await withApiKeyStore(config, async (store) => {
        out(`Database: ${store.describe}.`);
        return store.create(command.name);
      });
      out(`Created API key "${created.name}" (id ${created.id}, prefix ${created.prefix}).`);
      out('Store it now: it is shown only this once. Clients send it in the x-api-key header.');
      out(created.key);
      return;
    }
    case 'api-keys list': {
      const records = await withApiKeyStore(config, async (store) => {
        // --json prints the JSON alone, for scripts; the database goes to stderr there.
        (command.json ? err : out)(`Database: ${store.describe}.`);
        return store.list();
      });
      if (command.json) out(JSON.stringify(records, null, 2));
      else if (records.length === 0) out('No API keys. Create one with: npm run cli -- api-keys create --name NAME');
      else out(table(records));
      return;
    }
    case 'api-keys revoke': {
      const revoked = await withApiKeyStore(config, async (store) => {
        out(`Database: ${store.describe}.`);
        return store.revoke(command.id);
      });
      if (!revoked) {
        throw new CliFailure(`no active API key has the id ${command.id} (see: npm run cli -- api-keys list)`);
      }
      out(`Revoked API key ${command.id}. Running servers stop accepting it within ${config.apiKeyCacheMs / 1000} s.`);
      return;
    }
  }
}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Runs one command line; resolves to the exit code. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: CliIo = processIo,
): Promise<number> {
  try {
    const command = commandOf(parse(argv));
    if (command.kind === 'help') {
      io.out(HELP);
      return 0;
    }
    let config: Config;
    try {
      config = loadConfig(env);
    } catch (err) {
      if (err instanceof ConfigError) {
        io.err(`configuration error: ${err.message}`);
        return 2;
      }
      throw err;
    }
    await execute(command, config, env, io.out, io.err);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`error: ${err.message}`);
      io.err('Run with --help for usage.');
      return 2;
    }
    if (err instanceof CliFailure) {
      io.err(`error: ${err.message}`);
      return 1;
    }
    io.err(`error: ${(err as Error).stack ?? String(err)}`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
