// README's environment table against the table of settings (src/config/settings.ts): every setting is in README with
// the same default, README names no variable the table lacks, and README's copy is what `npm run gen:config-docs`
// writes today.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_BEGIN, DOCS_END, docRows, renderEnvTable, withEnvTable } from '../src/config/docs.ts';
import { SETTINGS, settingRows } from '../src/config/settings.ts';

const README = readFileSync(path.resolve(import.meta.dirname, '..', 'README.md'), 'utf8');

/** README's table as written: variable → its row's default cell. */
function readmeDefaults(): Map<string, string> {
  const section = README.slice(README.indexOf(DOCS_BEGIN), README.indexOf(DOCS_END));
  const found = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    // | names | default | accepts | meaning |: cells[0] and cells[5] are the empty ends.
    if (cells.length < 6 || !cells[1]!.startsWith('`')) continue;
    for (const m of cells[1]!.matchAll(/`([A-Z0-9_<>]+)`/g)) found.set(m[1]!, cells[2]!.replace(/\\\|/g, '|'));
  }
  return found;
}

describe("README's environment table", () => {
  it('is what npm run gen:config-docs writes from the table of settings (run it after changing a setting)', () => {
    expect(README).toContain(DOCS_BEGIN);
    expect(withEnvTable(README) === README, 'README.md is stale: run `npm run gen:config-docs`').toBe(true);
  });

  it('names every setting of the table, each with its default', () => {
    const readme = readmeDefaults();
    for (const row of docRows()) {
      for (const name of row.names) expect(readme.get(name), name).toBe(row.default);
    }
    // A literal default is shown as itself.
    for (const row of settingRows()) {
      if (row.default === undefined || row.defaultDoc !== undefined) continue;
      const shown = Array.isArray(row.default) ? row.default.join(',') : String(row.default);
      expect(readme.get(row.name), row.name).toContain(`\`${shown}\``);
    }
  });

  it('names no variable the table lacks', () => {
    const known = new Set(Object.keys(SETTINGS));
    const unknown = [...readmeDefaults().keys()].filter((name) => !known.has(name));
    expect(unknown).toEqual([]);
  });

  it('fails when README is stale: a changed default or a variable the table lacks is caught', () => {
    const rendered = renderEnvTable();
    const stale = README.replace(rendered, rendered.replace('| `PORT` | `3000` |', '| `PORT` | `8080` |'));
    expect(stale).not.toBe(README);
    expect(withEnvTable(stale)).not.toBe(stale);
    const extra = README.replace(DOCS_END, '| `NOT_A_SETTING` | `1` | text | nothing |\n' + DOCS_END);
    expect(withEnvTable(extra)).toBe(README);
  });
});
