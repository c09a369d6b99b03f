// What the staking routes' answers share: the base APY's rule as their descriptions state it, and the amounts' forms.
import { Type } from 'typebox';
import { APY_REFERENCE_STAKE } from '../../../domain/staking/apy.ts';

const REFERENCE_TOKENS = (APY_REFERENCE_STAKE / 10n ** 18n).toLocaleString('en-US');
export const APY_RULE = `Base APY = pool 0's emission a year / max(total effective stake, ${REFERENCE_TOKENS} tokens), in percent with 2 decimals; emission and primary token valued 1:1.`;

export const Percent = (description: string) => Type.Number({ minimum: 0, description });
export const Wei = (description: string) => Type.String({ pattern: '^[0-9]+$', description });
