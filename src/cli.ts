// The command line (`npm run cli -- <command>`): API keys and database migrations. It opens the database the
// server is configured with and never starts the chain. Exit codes: 0 ok, 1 failure, 2 usage or configuration error.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { type ApiKeyRecord, createApiKey, listApiKeys, revokeApiKey } from './domain/auth/api-keys.ts';

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  api-keys create --name NAME   create an API key (name 1-100 characters); the key is printed once, on the
                                last line, and only its sha256 is stored
  api-keys list [--json]        list the keys: id, name, prefix, created, revoked
  api-keys revoke ID            revoke a key; running servers stop accepting it within API_KEY_CACHE_MS
  migrate                       apply the database migrations and exit
  help, --help, -h              show this help

The database is the server's: DATABASE_URL when set, otherwise the embedded PGlite under $DATA_DIR/pg
(DATA_DIR defaults to ./data). PGlite allows one process at a time on a data directory: stop the server
before running a command against it.

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
      },
    });
    return { positionals, name: values.name, json: values.json ?? false, help: values.help ?? false };
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

type Command =
  | { kind: 'help' }
  | { kind: 'migrate' }
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

async function execute(command: Exclude<Command, { kind: 'help' }>, config: Config, out: (line: string) => void) {
  switch (command.kind) {
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
      const created = await withDatabase(config, (d) => createApiKey(d.db, command.name));
      out(`Created API key "${created.name}" (id ${created.id}, prefix ${created.prefix}).`);
      out('Store it now: it is shown only this once. Clients send it in the x-api-key header.');
      out(created.key);
      return;
    }
    case 'api-keys list': {
      const records = await withDatabase(config, (d) => listApiKeys(d.db));
      if (command.json) out(JSON.stringify(records, null, 2));
      else if (records.length === 0) out('No API keys. Create one with: npm run cli -- api-keys create --name NAME');
      else out(table(records));
      return;
    }
    case 'api-keys revoke': {
      const revoked = await withDatabase(config, (d) => revokeApiKey(d.db, command.id));
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
    await execute(command, config, io.out);
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
