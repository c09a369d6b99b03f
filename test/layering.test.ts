// The layers of src/ (docs/architecture.md), guarded: every import points down or sideways, never up.
//   entry   main.ts, container.ts, cli/              wire everything; nothing imports them
//   edge    http/, jobs/                             Fastify routes and the scheduler: call into the domain
//   domain  domain/                                  the platform's rules; knows nothing of Fastify or the root
//   infra   chain/, db/                              the chain and the database, no rule of the platform
//   base    every other file at the top of src/      configuration, errors, text, constants
// Type-only imports count: a type that runs up a layer ties the lower layer to the upper one all the same.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..', 'src');
const LAYERS = ['base', 'infra', 'domain', 'edge', 'entry'] as const;
type Layer = (typeof LAYERS)[number];

/** The layer of a file, by its path relative to src/. */
function layerOf(relative: string): Layer {
  const file = relative.split(path.sep).join('/');
  if (['main.ts', 'container.ts'].includes(file) || file.startsWith('cli/')) return 'entry';
  if (file.startsWith('http/') || file.startsWith('jobs/')) return 'edge';
  if (file.startsWith('domain/')) return 'domain';
  if (file.startsWith('chain/') || file.startsWith('db/')) return 'infra';
  return 'base';
}

/** The relative module specifiers a source imports or re-exports (static imports, type imports, dynamic imports). */
function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    found.push(m[1]!);
  }
  for (const m of source.matchAll(/(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of source.matchAll(/import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

/** Every import of `files` (path relative to src/ → source) that runs up a layer, as "from -> to (layers)". */
function upwardImports(files: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, source] of Object.entries(files)) {
    for (const specifier of importsOf(source)) {
      const target = path.relative(SRC, path.resolve(SRC, path.dirname(file), specifier));
      if (target.startsWith('..')) continue; // outside src/ (scripts/, artifacts): checked by their own rules
      const from = layerOf(file);
      const to = layerOf(target);
      if (LAYERS.indexOf(to) > LAYERS.indexOf(from)) problems.push(`${file} -> ${target} (${from} -> ${to})`);
    }
  }
  return problems.sort();
}

/** The cycles of a graph (each as the nodes around it, from its smallest name). */
function cyclesOf(edges: Map<string, string[]>): string[] {
  const cycles = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const loop = stack.slice(stack.indexOf(next));
        const first = loop.indexOf([...loop].sort()[0]!);
        cycles.add([...loop.slice(first), ...loop.slice(0, first)].join(' -> '));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
  return [...cycles].sort();
}

/** The files each of `files` imports, among `files`. */
function importEdges(files: Record<string, string>): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const [file, source] of Object.entries(files)) {
    edges.set(
      file,
      importsOf(source)
        .map((specifier) => path.relative(SRC, path.resolve(SRC, path.dirname(file), specifier)))
        .filter((target) => target in files),
    );
  }
  return edges;
}

/** The import cycles among `files` (each as the files around it, from its smallest name), type-only imports included. */
function importCycles(files: Record<string, string>): string[] {
  return cyclesOf(importEdges(files));
}

/**
 * The folder of a file for the folder-level check: its area inside src/domain or src/chain (`domain/companies`,
 * `chain/contracts`, with everything beneath it); undefined for any other file, and for the files at the top of
 * src/domain and src/chain (the domain's deps, the chain's client), which every area builds on.
 */
function folderOf(relative: string): string | undefined {
  const parts = relative.split(path.sep).join('/').split('/');
  if (!['domain', 'chain'].includes(parts[0]!) || parts.length < 3) return undefined;
  return `${parts[0]}/${parts[1]}`;
}

/** The cycles among the folders of src/domain and src/chain: a folder importing, at any remove, a folder that imports it. */
function folderCycles(files: Record<string, string>): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, targets] of importEdges(files)) {
    const from = folderOf(file);
    if (!from) continue;
    const to = targets.map(folderOf).filter((f): f is string => f !== undefined && f !== from);
    edges.set(from, [...new Set([...(edges.get(from) ?? []), ...to])]);
  }
  return cyclesOf(edges);
}

function sources(dir: string, out: Record<string, string> = {}): Record<string, string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (full.endsWith('.ts')) out[path.relative(SRC, full)] = readFileSync(full, 'utf8');
  }
  return out;
}

describe('layering', () => {
  it('finds an upward import, a type-only one and a re-export included', () => {
    expect(
      upwardImports({
        'domain/x.ts': "import type { Container } from '../container.ts';\nimport { ok } from '../errors.ts';",
        'chain/y.ts': "export { launch } from '../domain/tokens/launch.ts';",
        'config.ts': "import { MODEL_PROVIDERS } from './domain/engine/models/catalog.ts';",
        'http/z.ts': "import { openChain } from '../chain/index.ts';",
      }),
    ).toEqual([
      'chain/y.ts -> domain/tokens/launch.ts (infra -> domain)',
      'config.ts -> domain/engine/models/catalog.ts (base -> domain)',
      'domain/x.ts -> container.ts (domain -> entry)',
    ]);
  });

  it('finds an import cycle, type-only imports included', () => {
    expect(
      importCycles({
        'domain/a.ts': "import type { B } from './b.ts';",
        'domain/b.ts': "import { c } from './c.ts';",
        'domain/c.ts': "import { a } from './a.ts';",
        'domain/d.ts': "import { a } from './a.ts';",
      }),
    ).toEqual(['domain/a.ts -> domain/b.ts -> domain/c.ts']);
  });

  it('src/ has no import cycle', () => {
    expect(importCycles(sources(SRC))).toEqual([]);
  });

  it('finds a cycle between folders, however long, and not within one', () => {
    expect(
      folderCycles({
        'domain/a/x.ts': "import { y } from '../b/y.ts';",
        'domain/b/y.ts': "import type { Z } from '../c/deep/z.ts';",
        'domain/c/deep/z.ts': "import { w } from '../../a/w.ts';",
        'domain/a/w.ts': "import { x } from './x.ts';",
        'domain/d/v.ts': "import { x } from '../a/x.ts';\nimport { deps } from '../deps.ts';",
        'domain/deps.ts': "import { v } from './d/v.ts';",
      }),
    ).toEqual(['domain/a -> domain/b -> domain/c']);
  });

  it('inside src/domain and src/chain, no folder imports from a folder that imports it', () => {
    expect(folderCycles(sources(SRC))).toEqual([]);
  });

  /**
   * The one module that writes each table of src/db/schema (docs/architecture.md "One writer per table"): every other
   * module reads it, or asks its writer. Keyed by the schema object's name.
   */
  const WRITERS: Record<string, string> = {
    agents: 'domain/agents/store.ts',
    agentActions: 'domain/trading/action-records.ts',
    apiKeys: 'domain/auth/api-keys.ts',
    signatureReplays: 'domain/auth/wallet-signature.ts',
    idempotencyKeys: 'domain/auth/idempotency.ts',
    chainTxs: 'chain/outbox.ts',
    chainBlocks: 'chain/reorgs.ts',
    chainJournal: 'chain/journal.ts',
    chainCursors: 'chain/indexer.ts',
    companyGasDays: 'chain/outbox.ts',
    companies: 'domain/companies/store.ts',
    decisionRounds: 'domain/engine/rounds.ts',
    decisionBudgets: 'domain/engine/pipeline.ts',
    decisionSchedule: 'domain/engine/schedule.ts',
    engineReplicas: 'domain/engine/pool.ts',
    rewardEpochs: 'domain/epochs/distribute.ts',
    rewardClaims: 'domain/epochs/distribute.ts',
    platformEvents: 'domain/events/store.ts',
    platformEventPurges: 'domain/events/store.ts',
    scoreSnapshots: 'domain/scores/snapshot.ts',
    tokenTrades: 'domain/tokens/apply.ts',
    traderPositions: 'domain/tokens/apply.ts',
    positionCarries: 'domain/tokens/apply.ts',
    tokenHolderCounts: 'domain/tokens/company-token-holders.stream.ts',
    tokenBalances: 'domain/tokens/company-token-holders.stream.ts',
    companyTreasuries: 'domain/companies/treasury.ts',
    treasuryAccounts: 'domain/treasuries/treasury-transfers.stream.ts',
    treasuryObservations: 'domain/treasuries/observations.ts',
    signerWallets: 'domain/wallets/remote.ts',
    webhookEndpoints: 'domain/webhooks/store.ts',
    webhookDeliveries: 'domain/webhooks/store.ts',
    webhookAttempts: 'domain/webhooks/store.ts',
    webhookFanout: 'domain/webhooks/store.ts',
  };

  /** Every table of src/db/schema: its schema object's name → its SQL name. */
  function tablesOf(files: Record<string, string>): Record<string, string> {
    const tables: Record<string, string> = {};
    for (const [file, source] of Object.entries(files)) {
      if (!file.split(path.sep).join('/').startsWith('db/schema/')) continue;
      for (const m of source.matchAll(/export const (\w+)\s*=\s*pgTable\(\s*['"](\w+)['"]/g)) tables[m[1]!] = m[2]!;
    }
    return tables;
  }

  /**
   * A write to a table in any form: the query builder (`db.update(companies)`, `tx.insert(schema.companies)`), or SQL
   * naming it by its SQL name (`update companies c`, `insert into "companies"`) or by its interpolated schema object
   * (`update ${companies}`, `delete from ${schema.companies}`).
   */
  const writesTo = (object: string, name: string) =>
    new RegExp(
      `\\.(?:insert|update|delete)\\(\\s*(?:\\w+\\.)?${object}\\s*[,)]` +
        `|\\b(?:insert\\s+into|update|delete\\s+from)\\s+(?:\\$\\{\\s*(?:\\w+\\.)?${object}\\s*\\}|"?${name}"?\\b)`,
      'i',
    );

  /** The text `${name}` as it stands in a tagged SQL template of the source. */
  const slot = (name: string) => ['$', '{', name, '}'].join('');

  /** The modules of `files` that write each table: table (schema object's name) → writers. */
  function writersOf(files: Record<string, string>): Record<string, string[]> {
    const found: Record<string, string[]> = {};
    for (const [object, name] of Object.entries(tablesOf(files))) {
      found[object] = Object.entries(files)
        .filter(
          ([file, source]) => !file.split(path.sep).join('/').startsWith('db/') && writesTo(object, name).test(source),
        )
        .map(([file]) => file.split(path.sep).join('/'))
        .sort();
    }
    return found;
  }

  it('the writer rule sees each form of a write', () => {
    const forms = [
      'await db.update(companies).set({ name })',
      'await tx.insert(companies).values(row)',
      'await db.delete(companies).where(x)',
      'await db\n    .update(schema.companies)\n    .set({ name })',
      'sql`update companies c set status = 1`',
      'sql`update "companies" set status = 1`',
      'sql`insert into companies (id) values (1)`',
      'sql`delete from companies where id = 1`',
      `update ${slot('companies')} c set platform_score = x.overall`,
      `insert into ${slot('companies')} (id) values (1)`,
      `delete from ${slot('schema.companies')} where id = 1`,
    ];
    for (const form of forms) expect(writesTo('companies', 'companies').test(form), form).toBe(true);
    const reads = [
      'await db.select().from(companies)',
      'sql`select * from companies for update skip locked`',
      'on conflict (id) do update set name = excluded.name',
      'await db.update(companyTreasuries).set({ x })',
    ];
    for (const read of reads) expect(writesTo('companies', 'companies').test(read), read).toBe(false);
  });

  it('finds a second writer of a table, whichever form it writes in', () => {
    expect(
      writersOf({
        'db/schema/companies.ts': "export const companies = pgTable('companies', {});",
        'domain/companies/store.ts': 'await db.update(companies).set({ name });',
        'domain/scores/snapshot.ts': `await tx.execute(sql\`update ${slot('companies')} c set platform_score = 1\`);`,
      }),
    ).toEqual({ companies: ['domain/companies/store.ts', 'domain/scores/snapshot.ts'] });
  });

  it('names one writer for every table of src/db/schema, and no table that is not there', () => {
    expect(Object.keys(WRITERS).sort()).toEqual(Object.keys(tablesOf(sources(SRC))).sort());
  });

  it('writes every table from its one writer module only', () => {
    const expected = Object.fromEntries(Object.entries(WRITERS).map(([table, owner]) => [table, [owner]]));
    expect(writersOf(sources(SRC))).toEqual(expected);
  });

  it('domain/companies may use domain/agents, never the reverse: a company hires agents, an agent knows no company rule', () => {
    const back = Object.entries(sources(SRC))
      .filter(([file]) => file.split(path.sep).join('/').startsWith('domain/agents/'))
      .flatMap(([file, source]) =>
        importsOf(source)
          .filter((spec) => /(^|\/)companies\//.test(spec) && !spec.includes('db/schema'))
          .map((spec) => `${file} -> ${spec}`),
      );
    expect(back).toEqual([]);
  });

  it('reaches contracts only through the adapters of src/chain/contracts/: no ABI, no raw call above infra', () => {
    const raw = /@ai-economy\/shared\/abis|\.readContract\(|encodeFunctionData\(|\.getContractEvents\(/;
    const above = Object.entries(sources(SRC))
      .filter(([file, source]) => ['domain', 'edge'].includes(layerOf(file)) && raw.test(source))
      .map(([file]) => file);
    expect(above).toEqual([]);
  });

  it('src/ has no import that runs up a layer', () => {
    const files = sources(SRC);
    expect(Object.keys(files).length).toBeGreaterThan(100);
    expect(upwardImports(files)).toEqual([]);
  });

  it('code comments give the reason, not an issue number a reader cannot look up', () => {
    const root = path.resolve(SRC, '..');
    const files: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (entry === 'generated' || entry === 'node_modules' || entry === 'dist') continue;
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(ts|tsx|sol|sql)$/.test(entry)) files[path.relative(root, full)] = readFileSync(full, 'utf8');
      }
    };
    for (const dir of ['src', 'bench', 'contracts', 'scripts', 'web/src', 'packages/shared/src'])
      walk(path.join(root, dir));
    const cited = Object.entries(files)
      .filter(([, source]) => /\bissues? \d+(\.\d+)?\b/i.test(source))
      .map(([file]) => file);
    expect(Object.keys(files).length).toBeGreaterThan(100);
    expect(cited).toEqual([]);
  });
});

// The web app and the service share code only through packages/shared (ABIs, the platform's vocabulary, the decision
// hash, revert decoding, the curve's arithmetic): the web app imports nothing of src/, and the shared package
// imports nothing of either.
describe('the web app, the service and packages/shared', () => {
  const ROOT = path.resolve(SRC, '..');

  /** Every module specifier a source imports or re-exports, relative or bare. */
  const specifiersOf = (source: string) => [
    ...[...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!),
    ...[...source.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!),
    ...[...source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];

  /** The .ts and .tsx files under `dir` (relative to the repository), generated code left out. */
  function filesUnder(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (at: string) => {
      for (const entry of readdirSync(at)) {
        const full = path.join(at, entry);
        if (entry === 'generated' || entry === 'node_modules' || entry === 'dist') continue;
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry))
          out[path.relative(ROOT, full).split(path.sep).join('/')] = readFileSync(full, 'utf8');
      }
    };
    walk(path.join(ROOT, dir));
    return out;
  }

  /** Each import of `files` whose target is outside the folders `allowed` (relative) or a package `refused`. */
  function strayImports(files: Record<string, string>, allowed: string[], refused: RegExp): string[] {
    const problems: string[] = [];
    for (const [file, source] of Object.entries(files)) {
      for (const spec of specifiersOf(source)) {
        if (spec.startsWith('.')) {
          const target = path
            .relative(ROOT, path.resolve(ROOT, path.dirname(file), spec))
            .split(path.sep)
            .join('/');
          if (!allowed.some((dir) => target.startsWith(`${dir}/`))) problems.push(`${file} -> ${target}`);
        } else if (refused.test(spec)) problems.push(`${file} -> ${spec}`);
      }
    }
    return problems.sort();
  }

  it('finds an import of src/ from the web app, a relative one into the shared package and a dynamic one', () => {
    const files = {
      'web/src/pages/x.tsx': "import { AccessCardAbi } from '../../../src/chain/generated/abis';",
      'web/src/y.ts': "import { curve } from '../../packages/shared/src/curve.ts';\nimport { ok } from './ok';",
      'web/src/z.ts': "const m = import('../../src/constants');",
    };
    expect(strayImports(files, ['web'], /^node:/)).toEqual([
      'web/src/pages/x.tsx -> src/chain/generated/abis',
      'web/src/y.ts -> packages/shared/src/curve.ts',
      'web/src/z.ts -> src/constants',
    ]);
  });

  it('web/src imports nothing of src/: what it shares with the service comes from packages/*', () => {
    const files = filesUnder('web/src');
    expect(Object.keys(files).length).toBeGreaterThan(30);
    expect(strayImports(files, ['web/src'], /^node:/)).toEqual([]);
  });

  it('packages/shared imports nothing of src/ or web/, nor anything of Node: the browser runs it too', () => {
    const files = filesUnder('packages/shared/src');
    expect(Object.keys(files).length).toBeGreaterThan(3);
    expect(strayImports(files, ['packages/shared/src'], /^(?!viem$)/)).toEqual([]);
  });
});
