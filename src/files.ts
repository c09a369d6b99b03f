// Files the service writes into DATA_DIR, written so that a crash (SIGKILL, power loss) never leaves half of one.
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Replaces `file` through a temporary file and a rename: readers see the old content or the new, never half. */
export function writeFileAtomic(file: string, content: string, mode?: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, mode === undefined ? undefined : { mode });
  renameSync(tmp, file);
}

/**
 * Creates `file` with `content` unless it exists, and returns what the file holds: `content`, or what another
 * process wrote first. The content is written whole to a temporary file and then linked into place, which fails when
 * the name exists, so two processes starting at once agree on one value and a crash leaves no half-written file.
 */
export function createFileOnce(file: string, content: string, mode: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode });
  try {
    linkSync(tmp, file);
    return content;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFileSync(file, 'utf8');
  } finally {
    unlinkSync(tmp);
  }
}
