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

const MARKDOWN = TREES.flatMap((tree) => files(tree)).filter((f) => f.endsWith('.md'));

/** The anchors of a Markdown document's headings, as GitHub makes them (a repeated one gets -1, -2, ...). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
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

  it('every relative link of the docs opens a file of the repository, at a heading it has', () => {
    const broken: string[] = [];
    for (const file of MARKDOWN) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, target, fragment] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const resolved = target ? path.join(ROOT, path.dirname(file), target) : path.join(ROOT, file);
        try {
          statSync(resolved);
        } catch {
          broken.push(`${file} -> ${target}`);
          continue;
        }
        if (fragment && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(fragment)) {
          broken.push(`${file} -> ${target}#${fragment}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('a comment or doc that names an anchor of a document names one it has', () => {
    const broken: string[] = [];
    for (const file of TREES.flatMap((tree) => files(tree))) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, doc, fragment] of text.matchAll(/\b((?:docs|test)\/[\w./-]+\.md)#([\w-]+)/g)) {
        if (!anchorsOf(readFileSync(path.join(ROOT, doc!), 'utf8')).has(fragment!))
          broken.push(`${file} -> ${doc}#${fragment}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names a heading as GitHub anchors it', () => {
    const anchors = anchorsOf('# Test suite (`npm test`, 2026-11-26)\n## Read routes, 10,000 companies\n## A\n## A\n');
    expect([...anchors]).toEqual(['test-suite-npm-test-2026-11-26', 'read-routes-10000-companies', 'a', 'a-1']);
    expect(anchorsOf('```\n# not a heading\n```\n').size).toBe(0);
  });
});
