// The engine role's loop: every ENGINE_POLL_MS, run the rounds that are due (runDueRounds). Any number of
// processes may run it: the RUNNING round row is each company's claim.
import { type RunnerDeps, runDueRounds } from './runner.ts';

export interface EngineLoop {
  /** Stops polling and waits for the rounds in progress to finish. */
  stop(): Promise<void>;
}

export function startEngine(
  deps: RunnerDeps & { log: { warn(o: object, m: string): void; debug(o: object, m: string): void } },
  options: { pollMs: number; intervalS: number; concurrency: number },
): EngineLoop {
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();
  const tick = () => {
    pass = runDueRounds(deps, { intervalS: options.intervalS, concurrency: options.concurrency })
      .then((ran) => {
        if (ran > 0) deps.log.debug({ rounds: ran }, 'decision rounds run');
      })
      .catch((err) => deps.log.warn({ err }, 'running due decision rounds failed; retried at the next poll'))
      .finally(() => {
        if (running) timer = setTimeout(tick, options.pollMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      await pass;
    },
  };
}
