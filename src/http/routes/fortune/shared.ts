// What the Fortune List's routes share (docs/api/fortune.md): the category filter, and a snapshot's overall score, its
// five components, the raw values they were scored from and the referral boost, with the day the snapshot covers.
import { type TSchema, Type } from 'typebox';
import { COMPANY_CATEGORIES } from '../../../constants.ts';
import { VOLUME_TRADER_SHARE_MAX_BPS } from '../../../domain/scores/formula.ts';
import { IsoTimestamp, StringEnum } from '../../schemas/common.ts';

export const Category = StringEnum(COMPANY_CATEGORIES, { description: 'Only companies of this category' });

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });
const Usdc = (description: string) => Type.Number({ description: `${description}, in USDC (up to 6 decimals)` });

/** The overall score, its five components, the raw values they were scored from and the referral boost. */
export const scoreComponents = {
  overall: Type.Number({
    minimum: 0,
    description:
      '(0.30 treasury + 0.20 trading + 0.20 volume + 0.20 activity + 0.10 completeness) * (1 + referralBoost)',
  }),
  treasuryScore: Score('Treasury, log scale against the best company, 0-100'),
  tradingScore: Score('Trading PnL, log scale against the best company (0 for a loss), 0-100'),
  volumeScore: Score('Counted token volume of the covered day, log scale against the best company, 0-100'),
  activityScore: Score('Completed scheduled decision rounds, linear against the best company, 0-100'),
  completenessScore: Score('Profile completeness, 100 * completenessRaw'),
  treasuryRaw: Usdc('USDC balance of the treasury'),
  tradingRaw: Usdc("Sells minus buys of the company's agents over the day before the snapshot; may be negative"),
  volumeRaw: Usdc(
    `Counted volume of the company's token over the day before the snapshot: each trader's net position change, at most ${VOLUME_TRADER_SHARE_MAX_BPS / 100}% of the total per trader`,
  ),
  activityRaw: Type.Integer({
    minimum: 0,
    description: 'Completed SCHEDULED decision rounds in the 7 days before the snapshot (manual rounds do not count)',
  }),
  completenessRaw: Type.Number({ minimum: 0, maximum: 1, description: 'Share of the 11 profile items filled' }),
  referralBoost: Type.Number({ minimum: 0, maximum: 0.25, description: '0.01 per company referred, at most 0.25' }),
};

/**
 * The components without their bounds: the serializer checks the members of a nullable (anyOf) schema, and a stored
 * value outside a documented bound (a referral boost seeded above 0.25) must not fail the whole page.
 */
export function unbounded<T extends Record<string, TSchema>>(properties: T): T {
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const { minimum: _min, maximum: _max, ...rest } = schema as TSchema & { minimum?: number; maximum?: number };
      return [name, rest];
    }),
  ) as T;
}

/** The day a snapshot covers. */
export const Covers = (description: string) => Type.Object({ from: IsoTimestamp, to: IsoTimestamp }, { description });
