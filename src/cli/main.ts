// The command line (`npm run cli -- <command>`): API keys, database migrations, the deployment of the contracts
// to a chain (src/chain/deploy-command.ts), and the reconciliation of the indexed tables with the chain
// (reconcile.ts). The database commands use the database the server is configured with
// (api-key-stores.ts) and never start the chain. Exit codes: 0 ok, 1 failure, 2 usage or configuration error.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DeployRefused } from '../chain/deploy.ts';
import { runDeploy } from '../chain/deploy-command.ts';
import { describeSettings } from '../config/settings.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { CliFailure, table, withApiKeyStore, withDatabase } from './api-key-stores.ts';
import { runKeys } from './keys.ts';
import { runReconcile } from './reconcile.ts';

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  api-keys create --name NAME   create an API key (name 1-100 characters); the key is printed once, on the
                                last line, and only its sha256 is stored
  api-keys list [--json]        list the keys: id, name, prefix, created, revoked
  api-keys revoke ID            revoke a key; running servers stop accepting it within API_KEY_CACHE_MS
  migrate                       apply the database migrations and exit
  deploy --owner ADDRESS [--usdc ADDRESS] [--pool-manager ADDRESS] [--fee-recipient ADDRESS]
                                deploy the platform's contracts to the chain of CHAIN_RPC_URL (deployer:
                                DEPLOYER_PRIVATE_KEY, else PLATFORM_PRIVATE_KEY) and write CONTRACTS_FILE and,
                                beside it, the compiler's standard-JSON input; run again, it resumes an
                                interrupted deployment and never deploys a contract twice. The chain's own USDC
                                and v4 PoolManager are used (known on Base; else pass them); mocks only on
                                chain 31337. --owner (the operator's multisig; a dev account by default on chain
                                31337) proposes every change of the rules through the platform's timelock (two
                                days). See docs/operations.md, "Going live on Base".
  keys [--json]                 who holds every role and ownership of the contracts, read from the chain
                                (CHAIN_RPC_URL and CONTRACTS_FILE, else the local service's chain), flagging any
                                owner's power a key of this configuration holds
  reconcile [--from N] [--to M] [--fix]
                                compare every table the chain streams derive (trades, positions, holders,
                                balances, launches, graduations, card ownership, treasury observations) with a
                                fresh index of the chain of CHAIN_RPC_URL, and print each difference (table,
                                key, database value, chain value); exit 1 when there is any. --fix repairs them
                                in one transaction. --to (default each stream's cursor) compares at that block;
                                --from (default each stream's start) limits the rows of single logs (trades,
                                treasury observations) reported. See docs/operations.md, "Reconcile".
  config [--json]               check the configuration and print every setting: the value the environment
                                gives it, or its default; secrets (keys, seeds, tokens) show as [redacted]
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

interface Parsed {
  positionals: string[];
  name: string | undefined;
  json: boolean;
  help: boolean;
  usdc: string | undefined;
  poolManager: string | undefined;
  feeRecipient: string | undefined;
  owner: string | undefined;
  from: string | undefined;
  to: string | undefined;
  fix: boolean;
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
        owner: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        fix: { type: 'boolean', default: false },
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
      owner: values.owner,
      from: values.from,
      to: values.to,
      fix: values.fix ?? false,
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
  if (command !== 'deploy' && (p.usdc ?? p.poolManager ?? p.feeRecipient ?? p.owner) !== undefined) {
    throw new UsageError(`${command} takes no --usdc, --pool-manager, --fee-recipient or --owner`);
  }
  if (command !== 'reconcile' && (p.from !== undefined || p.to !== undefined || p.fix)) {
    throw new UsageError(`${command} takes no --from, --to or --fix`);
  }
}

/** A block number option: a decimal integer from 0. */
function blockOption(name: string, value: string | undefined): bigint | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,20}$/.test(value))
    throw new UsageError(`reconcile: ${name} must be a block number (0 or more), not ${value}`);
  return BigInt(value);
}

type Command =
  | { kind: 'help' }
  | { kind: 'migrate' }
  | { kind: 'config'; json: boolean }
  | { kind: 'deploy'; usdc?: string; poolManager?: string; feeRecipient?: string; owner?: string }
  | { kind: 'keys'; json: boolean }
  | { kind: 'reconcile'; from?: bigint | undefined; to?: bigint | undefined; fix: boolean }
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
  if (command === 'config') {
    expectArgs(p, 'config', 1, 0, ['json']);
    return { kind: 'config', json: p.json };
  }
  if (command === 'deploy') {
    expectArgs(p, 'deploy', 1, 0);
    return { kind: 'deploy', usdc: p.usdc, poolManager: p.poolManager, feeRecipient: p.feeRecipient, owner: p.owner };
  }
  if (command === 'keys') {
    expectArgs(p, 'keys', 1, 0, ['json']);
    return { kind: 'keys', json: p.json };
  }
  if (command === 'reconcile') {
    expectArgs(p, 'reconcile', 1, 0);
    const from = blockOption('--from', p.from);
    const to = blockOption('--to', p.to);
    if (from !== undefined && to !== undefined && from > to) {
      throw new UsageError(`reconcile: --from ${from} is above --to ${to}`);
    }
    return { kind: 'reconcile', from, to, fix: p.fix };
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
    case 'config': {
      // loadConfig has refused a wrong value already; what is printed goes through the table, secrets hidden.
      const shown = describeSettings(env);
      if (command.json) {
        out(JSON.stringify(Object.fromEntries(shown.map((s) => [s.name, s.value ?? null])), null, 2));
        return;
      }
      for (const s of shown) {
        if (s.value !== undefined) out(`${s.name}=${s.value}`);
        else out(s.default === '' ? `${s.name} (not set)` : `${s.name} (not set; default: ${s.default})`);
      }
      return;
    }
    case 'deploy': {
      try {
        await runDeploy(config, env, command, out);
      } catch (e) {
        if (e instanceof DeployRefused) throw new CliFailure(e.message);
        throw e;
      }
      return;
    }
    case 'keys': {
      await runKeys(config, command.json, out);
      return;
    }
    case 'reconcile': {
      await runReconcile(
        config,
        {
          fix: command.fix,
          ...(command.from !== undefined && { from: command.from }),
          ...(command.to !== undefined && { to: command.to }),
        },
        out,
      );
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
