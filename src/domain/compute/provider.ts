// Compute machines that run a company's engine. A provider is plugged in by deployments that have one; with
// none, deploy-suite starts nothing and the engine route reports "skipped".
export interface ComputeProvider {
  readonly kind: string;
  /** Starts a machine for the company; returns its id. */
  startMachine(company: { id: string; slug: string; enginePreset: string }): Promise<string>;
  /** Resizes the machine to suit the engine preset. */
  resizeMachine(machineId: string, enginePreset: string): Promise<void>;
  /** Replaces the machine's engine environment (autonomy level, directive). */
  updateEnv(machineId: string, env: Record<string, string>): Promise<void>;
}

export type MachineStepResult = 'ok' | 'skipped' | 'failed';

/** Runs one machine step, reporting skipped without a provider or machine and failed on an error. */
export async function machineStep(
  compute: ComputeProvider | undefined,
  machineId: string | null,
  step: (compute: ComputeProvider, machineId: string) => Promise<void>,
  onError: (err: unknown) => void,
): Promise<MachineStepResult> {
  if (!compute || !machineId) return 'skipped';
  try {
    await step(compute, machineId);
    return 'ok';
  } catch (err) {
    onError(err);
    return 'failed';
  }
}
