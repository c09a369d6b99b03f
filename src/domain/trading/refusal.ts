// An agent action the checks refused (actions.ts, buy-checks.ts): nothing was signed, and the reason is the answer.

/** An action the checks refused: nothing was signed. */
export class TradeRefused extends Error {}

/** Refuses the action with `reason`. */
export const refuse = (reason: string): never => {
  throw new TradeRefused(reason);
};
