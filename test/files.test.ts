// Files written into DATA_DIR: whole or not at all, and a create-once file keeps the first value.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileOnce, writeFileAtomic } from '../src/files.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aie-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createFileOnce', () => {
  it('creates the file with its mode and leaves no temporary file', () => {
    const file = path.join(dir, 'a', 'secret');
    expect(createFileOnce(file, 'first\n', 0o600)).toBe('first\n');
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['secret']);
  });

  it('keeps what another process wrote first and answers with it', () => {
    const file = path.join(dir, 'b');
    writeFileSync(file, 'theirs\n');
    expect(createFileOnce(file, 'mine\n', 0o600)).toBe('theirs\n');
    expect(readFileSync(file, 'utf8')).toBe('theirs\n');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('writeFileAtomic', () => {
  it('replaces the content whole', () => {
    const file = path.join(dir, 'c', 'contracts.json');
    writeFileAtomic(file, 'one');
    writeFileAtomic(file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readdirSync(path.dirname(file))).toEqual(['contracts.json']);
  });
});
