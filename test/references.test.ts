// Comments and docs answer "why" from inside the repository: they cite the project's own documents (docs/api/*.md,
// docs/decisions.md, docs/architecture.md, ...), never a file outside it that a reader of a clone cannot open.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const TREES = ['src', 'test', 'docs', 'contracts', 'scripts', 'bench', 'web/src', 'README.md'];
const TEXT = /\.(ts|tsx|sol|md|json)$/;
/** Documents that live outside the repository (the workplace's own copies of the contract and its decisions). */
const OUTSIDE = /\b(SPEC|DESIGN|STYLE)\.md\b|\.\.\/shared\//;

function files(entry: string, out: string[] = []): string[] {
  const full = path.join(ROOT, entry);
  if (statSync(full).isDirectory()) {
    for (const child of readdirSync(full)) files(path.join(entry, child), out);
  } else if (TEXT.test(entry) && !entry.endsWith('.d.ts')) out.push(entry);
  return out;
}

describe('references', () => {
  it('no file cites a document outside the repository', () => {
    const cited = TREES.flatMap((tree) => files(tree)).filter(
      (file) =>
        file !== path.join('test', 'references.test.ts') && OUTSIDE.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(cited).toEqual([]);
  });

  it('sees each form of such a citation', () => {
    for (const text of ['// (SPEC.md "Limits")', "DESIGN.md's rule", 'see ../shared/vectors', 'STYLE.md'])
      expect(OUTSIDE.test(text), text).toBe(true);
    expect(OUTSIDE.test('docs/api/README.md "Limits"')).toBe(false);
  });

  it('every relative link of the docs opens a file of the repository', () => {
    const broken: string[] = [];
    for (const file of files('docs')
      .concat('README.md')
      .filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const resolved = path.join(ROOT, path.dirname(file), target!);
        try {
          statSync(resolved);
        } catch {
          broken.push(`${file} -> ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
