// Writes README.md's environment table from the table of settings (src/config/settings.ts): `npm run gen:config-docs`.
// test/config-docs.test.ts fails while README's copy differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withEnvTable } from '../src/config/docs.ts';

const readme = path.resolve(import.meta.dirname, '..', 'README.md');
const before = readFileSync(readme, 'utf8');
const after = withEnvTable(before);
if (after === before) {
  process.stdout.write('README.md: the environment table is up to date\n');
} else {
  writeFileSync(readme, after);
  process.stdout.write('README.md: the environment table was regenerated\n');
}
