// The command line, run as the operator runs it: a child process on the configured database. Each kind of run is
// a process once (exit codes, what reaches stdout and stderr, PGlite's one process at a time); its variations run
// `runCli` in this process, which is what the process runs, with the same output captured.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runCliInProcess } from '../src/cli/main.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { API_KEY_PATTERN, createApiKeyVerifier } from '../src/domain/auth/api-keys.ts';
import { type CliRun, lastLine, runCli } from './helpers/process.ts';

/** `runCli` in this process with `env` only, its output captured as a process's would be. */
async function runInProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCliInProcess(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  const text = (lines: string[]) => (lines.length ? `${lines.join('\n')}\n` : '');
  return { code, stdout: text(out), stderr: text(err) };
}

interface Target {
  name: string;
  /** Environment of the CLI: where its database is. */
  env(): Record<string, string>;
  /** Opens the same database in the test process (after the CLI exited: PGlite is one process at a time). */
  open(): Promise<Database>;
  setup(): Promise<void>;
  teardown(): Promise<void>;
}

function pgliteTarget(): Target {
  let dataDir = '';
  return {
    name: 'pglite',
    env: () => ({ DATA_DIR: dataDir }),
    open: () => openDatabase({ dataDir: path.join(dataDir, 'pg') }),
    setup: async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'aie-cli-'));
    },
    teardown: async () => {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function postgresTarget(serverUrl: string): Target {
  const name = `aie_cli_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aie-cli-pg-'));
  const admin = async (query: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(query);
    } finally {
      await c.end();
    }
  };
  return {
    name: 'postgres',
    env: () => ({ DATABASE_URL: url.toString(), DATA_DIR: dataDir }),
    open: () => openDatabase({ url: url.toString(), poolSize: 1 }),
    setup: () => admin(`create database ${name}`),
    teardown: async () => {
      await admin(`drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const targets: Target[] = [
  pgliteTarget(),
  ...(process.env.TEST_DATABASE_URL ? [postgresTarget(process.env.TEST_DATABASE_URL)] : []),
];

describe.each(targets)('cli on $name', (target) => {
  beforeAll(() => target.setup());
  afterAll(() => target.teardown());

  const cli = (...args: string[]) => runCli(args, target.env());
  const inProcess = (...args: string[]) => runInProcess(args, target.env());

  it('migrate opens the database, applies the migrations and exits 0, without starting the chain', async () => {
    const res = await cli('migrate');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Database migrated/);
    const dataDir = target.env().DATA_DIR!;
    expect(existsSync(path.join(dataDir, 'chain-state.json'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'contracts.json'))).toBe(false);
    if (target.name === 'pglite') expect(readdirSync(path.join(dataDir, 'pg'))).toContain('PG_VERSION');
  }, 120_000);

  it('api-keys create, list and revoke manage a key end to end', async () => {
    const created = await cli('api-keys', 'create', '--name', 'ci runner');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = lastLine(created.stdout);
    expect(key).toMatch(/^aie_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatch(API_KEY_PATTERN);
    const id = /id (\S+),/.exec(created.stdout)![1]!;

    const listed = await cli('api-keys', 'list');
    expect(listed.code).toBe(0);
    const [used, header, ...rows] = listed.stdout.trimEnd().split('\n');
    // It says which database it used (no service runs on this data directory).
    expect(used).toEqual(
      target.name === 'pglite'
        ? `Database: the embedded PGlite under ${path.join(target.env().DATA_DIR!, 'pg')}.`
        : expect.stringMatching(/^Database: PostgreSQL at postgres.*\(DATABASE_URL\)\.$/),
    );
    expect(header!.split(/\s{2,}/)).toEqual(['ID', 'NAME', 'PREFIX', 'CREATED', 'REVOKED']);
    expect(rows).toHaveLength(1);
    const [rowId, name, prefix, createdAt, revoked] = rows[0]!.split(/\s{2,}/);
    expect(rowId).toBe(id);
    expect(name).toBe('ci runner');
    expect(key.startsWith(prefix!)).toBe(true);
    expect(Date.parse(createdAt!)).not.toBeNaN();
    expect(revoked).toBe('-');
    expect(listed.stdout).not.toContain(key);

    // The stored key verifies in the service (opened after the CLI exited).
    let database = await target.open();
    try {
      const verifier = createApiKeyVerifier(database.db, { cacheMs: 0 });
      expect(await verifier.verify(key)).toEqual({ id, name: 'ci runner' });
    } finally {
      await database.close();
    }

    const revokedRun = await inProcess('api-keys', 'revoke', id);
    expect(revokedRun.stderr).toBe('');
    expect(revokedRun.code).toBe(0);
    expect(revokedRun.stdout).toContain(`Revoked API key ${id}`);

    const json = await inProcess('api-keys', 'list', '--json');
    expect(json.code).toBe(0);
    const records = JSON.parse(json.stdout) as { id: string; revokedAt: string | null }[];
    expect(records).toHaveLength(1);
    expect(records[0]!.id).toBe(id);
    expect(Date.parse(records[0]!.revokedAt!)).not.toBeNaN();

    database = await target.open();
    try {
      expect(await createApiKeyVerifier(database.db, { cacheMs: 0 }).verify(key)).toBeNull();
    } finally {
      await database.close();
    }

    const again = await inProcess('api-keys', 'revoke', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no active API key has the id/);
    const unknown = await inProcess('api-keys', 'revoke', 'no-such-key');
    expect(unknown.code).toBe(1);
  }, 180_000);
});

describe('cli usage', () => {
  // Usage errors are found before any database is opened; the directory stays empty.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aie-cli-usage-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const cli = (...args: string[]) => runCli(args, { DATA_DIR: dataDir });

  it('--help prints the usage and exits 0', async () => {
    for (const [i, args] of [['--help'], ['-h'], ['help'], ['api-keys', '--help']].entries()) {
      const res = i === 0 ? await cli(...args) : await runInProcess(args, { DATA_DIR: dataDir });
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^Usage: npm run cli -- <command>/);
      expect(res.stdout).toContain('api-keys create --name NAME');
      expect(res.stdout).toContain('PGlite admits one process');
      expect(res.stdout).toContain('never create an empty');
    }
  });

  it('exits 2 with a usage error for a bad command line, as a process', async () => {
    const res = await cli('api-keys', 'create');
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/--name NAME is required/);
    expect(res.stderr).toContain('Run with --help for usage.');
    expect(readdirSync(dataDir)).toEqual([]);
  });

  // The same checks in process (runCli is what the process runs), for every kind of usage error.
  it.each([
    [[], /no command given/],
    [['frobnicate'], /unknown command frobnicate/],
    [['api-keys'], /expected create, list or revoke/],
    [['api-keys', 'rotate'], /unknown subcommand rotate/],
    [['api-keys', 'create'], /--name NAME is required/],
    [['api-keys', 'create', '--name'], /--name/],
    [['api-keys', 'create', '--name', '   '], /1-100 characters/],
    [['api-keys', 'create', '--name', 'x'.repeat(101)], /1-100 characters/],
    [['api-keys', 'create', '--name', 'a', 'extra'], /unexpected argument extra/],
    [['api-keys', 'list', 'extra'], /unexpected argument extra/],
    [['api-keys', 'list', '--name', 'x'], /takes no --name/],
    [['api-keys', 'revoke'], /missing argument/],
    [['api-keys', 'revoke', ''], /the ID is empty/],
    [['api-keys', 'revoke', 'a', 'b'], /unexpected argument b/],
    [['api-keys', 'revoke', 'a', '--json'], /takes no --json/],
    [['migrate', 'now'], /unexpected argument now/],
    [['--bogus'], /Unknown option '--bogus'/],
  ])('runCli(%j) answers 2 with a usage error, opening nothing', async (args, message) => {
    const res = await runInProcess(args as string[], { DATA_DIR: dataDir });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(message);
    expect(res.stderr).toContain('Run with --help for usage.');
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('exits 2 on a configuration error, naming the variable', async () => {
    const res = await runInProcess(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: 'mysql://db/x' });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/configuration error: DATABASE_URL must use one of postgres:, postgresql:/);
  });

  it('exits 1 without creating anything when DATA_DIR holds no database, saying where it looked', async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'aie-cli-elsewhere-'));
    try {
      for (const args of [
        ['api-keys', 'list'],
        ['api-keys', 'create', '--name', 'x'],
        ['api-keys', 'revoke', 'x'],
      ]) {
        const res = await runInProcess(args, { DATA_DIR: elsewhere });
        expect(res.code).toBe(1);
        expect(res.stderr).toContain(`no database under ${path.join(elsewhere, 'pg')}`);
        expect(res.stderr).toMatch(/Start the service once/);
      }
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('exits 1 when the embedded database cannot be opened, saying PGlite takes one process at a time', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'aie-cli-broken-'));
    // A data directory whose database is not a PGlite directory (here a file): it exists, but cannot be opened.
    writeFileSync(path.join(dir, 'pg'), 'not a directory');
    try {
      const res = await runInProcess(['api-keys', 'list'], { DATA_DIR: dir });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/cannot open the embedded database under/);
      expect(res.stderr).toContain('PGlite allows one process at a time on a data directory');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not echo DATABASE_URL (it may hold a password) when the server cannot be reached', async () => {
    const res = await runCli(['migrate'], {
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://aie:s3cret-pw@127.0.0.1:9/x',
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/cannot open the database of DATABASE_URL/);
    expect(res.stderr).not.toContain('s3cret-pw');
  });
});
