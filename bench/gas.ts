// The gas of the contract functions a user or the platform calls, as docs/contracts.md records them. Those numbers are
// measured on anvil by the contract tests (test/contracts/*.test.ts print them on every run); this reads the
// document's `| call | gas |` tables rather than deploying again, and names the section each row comes from.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const GAS_SOURCE = path.join(here, '..', 'docs', 'contracts.md');

export interface GasRow {
  section: string;
  call: string;
  gas: string;
}

export function readGasTable(file = GAS_SOURCE): GasRow[] {
  const rows: GasRow[] = [];
  let section = '';
  let inTable = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('#')) section = line.replace(/^#+\s*/, '');
    if (/^\|\s*call\s*\|\s*gas\s*\|/.test(line)) {
      inTable = true;
      continue;
    }
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    if (!inTable || /^\|\s*-/.test(line)) continue;
    const [call, gas] = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim().replaceAll('`', ''));
    if (call && gas) rows.push({ section, call, gas });
  }
  return rows;
}

export function printGasTable() {
  const rows = readGasTable();
  console.log(
    `gas of contract calls (anvil, measured by test/contracts, from ${path.relative(process.cwd(), GAS_SOURCE)}):`,
  );
  console.table(rows.map((r) => ({ section: r.section, call: r.call, gas: r.gas })));
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) printGasTable();
