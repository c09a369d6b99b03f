// DATA_DIR/service.json: where a running service on this data directory answers, so a local tool (the CLI) can ask
// it instead of opening the embedded database, which PGlite lets only one process hold. Written once the service
// listens and removed when it stops; a file left by a killed process is told apart by asking the URL.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './files.ts';

export const SERVICE_FILE = 'service.json';

export interface ServiceFile {
  /** A loopback URL the service answers on. */
  url: string;
  pid: number;
}

export function writeServiceFile(dataDir: string, info: ServiceFile): void {
  writeFileAtomic(path.join(dataDir, SERVICE_FILE), `${JSON.stringify(info)}\n`, 0o600);
}

export function readServiceFile(dataDir: string): ServiceFile | undefined {
  const file = path.join(dataDir, SERVICE_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ServiceFile>;
    return typeof parsed.url === 'string' && typeof parsed.pid === 'number'
      ? { url: parsed.url, pid: parsed.pid }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the file if it is this process's (a newer service may have written its own). */
export function removeServiceFile(dataDir: string, pid = process.pid): void {
  if (readServiceFile(dataDir)?.pid === pid) rmSync(path.join(dataDir, SERVICE_FILE), { force: true });
}
