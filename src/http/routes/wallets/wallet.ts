// The wallet of a path parameter, checked as the staking routes check it: a bad one is 400 BAD_REQUEST, named.
import { ADDRESS_RULE, parseAddress } from '../../../address.ts';
import { badRequest } from '../../../errors.ts';

export function walletOf(raw: string) {
  const parsed = parseAddress(raw);
  if (parsed.ok) return parsed.address;
  throw badRequest(`Invalid wallet address "${raw.slice(0, 50)}" (${parsed.reason}); expected ${ADDRESS_RULE}`);
}
