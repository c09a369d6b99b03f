// A benchmark file run as a script (`npx tsx bench/http.ts`) runs its part; imported (bench/run.ts), it does not.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs `part` when the module at `moduleUrl` is the process's entry point, then exits: with the code `part` answers
 * (0 when it answers no number), or 1 with the error printed.
 */
export function runAsScript(moduleUrl: string, part: () => Promise<unknown>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  part().then(
    (code) => process.exit(typeof code === 'number' ? code : 0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
