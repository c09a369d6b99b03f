// Schemas of the Fortune List routes (docs/api/fortune.md "Fortune List entry (internal view)", "Fortune List entry (v1
// view)", GET /api/fortune-list, GET /api/v1/fortune). Unknown query parameters are ignored, as elsewhere.
import { type TSchema, Type } from 'typebox';
import {
  COMPANY_CATEGORIES,
  COMPANY_STATUSES,
  FORTUNE_LIST_LIMIT_DEFAULT,
  FORTUNE_LIST_LIMIT_MAX,
  FORTUNE_LIST_LIMIT_MIN,
  LEAGUES,
  TOKEN_STATUSES,
  V1_PAGE_SIZE_DEFAULT,
  V1_PAGE_SIZE_MAX,
} from '../../constants.ts';
import { VOLUME_TRADER_SHARE_MAX_BPS } from '../../domain/scores/formula.ts';
import { FORTUNE_EPOCH_PATTERN } from '../../domain/scores/queries.ts';
import {
  AddressOut,
  CursorQuery,
  IsoTimestamp,
  internalOk,
  Nullable,
  OpenEnum,
  PageQuery,
  StringEnum,
  v1List,
  v1Ok,
} from './common.ts';

const Category = StringEnum(COMPANY_CATEGORIES, { description: 'Only companies of this category' });

export const FortuneListQuery = Type.Object({
  limit: Type.Integer({
    minimum: FORTUNE_LIST_LIMIT_MIN,
    maximum: FORTUNE_LIST_LIMIT_MAX,
    default: FORTUNE_LIST_LIMIT_DEFAULT,
    description: `Entries to return, ${FORTUNE_LIST_LIMIT_MIN}-${FORTUNE_LIST_LIMIT_MAX}`,
  }),
  epoch: Type.String({
    pattern: FORTUNE_EPOCH_PATTERN,
    default: 'latest',
    description: 'The snapshot: `latest`, or a UTC date YYYY-MM-DD (snapshots are taken daily at 00:00 UTC)',
  }),
  category: Type.Optional(Category),
  league: Type.Optional(
    StringEnum(LEAGUES, { description: 'Only companies of this league, ranked 1..n within it (`rank`)' }),
  ),
});

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });
const Usdc = (description: string) => Type.Number({ description: `${description}, in USDC (up to 6 decimals)` });

/** The overall score, its five components, the raw values they were scored from and the referral boost. */
const scoreComponents = {
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
function unbounded<T extends Record<string, TSchema>>(properties: T): T {
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const { minimum: _min, maximum: _max, ...rest } = schema as TSchema & { minimum?: number; maximum?: number };
      return [name, rest];
    }),
  ) as T;
}

/** The day a snapshot covers. */
const Covers = (description: string) => Type.Object({ from: IsoTimestamp, to: IsoTimestamp }, { description });

export const FortuneListEntry = Type.Object({
  rank: Type.Integer({
    minimum: 1,
    description:
      'Rank in the snapshot: within the league under a `league` filter, else platform-wide (also under a category filter)',
  }),
  platformRank: Type.Integer({ minimum: 1, description: 'Platform-wide rank in the snapshot, whatever the filters' }),
  company: Type.Object({
    id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    tokenSymbol: Nullable(Type.String()),
    logoUrl: Nullable(Type.String()),
    status: StringEnum(COMPANY_STATUSES),
    league: StringEnum(LEAGUES),
    category: OpenEnum(COMPANY_CATEGORIES, "The company's category"),
  }),
  score: Type.Object(scoreComponents),
});

export const FortuneListResponse = internalOk(
  Type.Object({
    epoch: IsoTimestamp,
    covers: Covers(
      'The day the snapshot covers, [epoch - 24 h, epoch): the trades of volume and trading PnL (activity looks back 7 days from `to`, the treasury is read when the snapshot is taken). Not in the API contract: an addition',
    ),
    companies: Type.Array(FortuneListEntry),
    message: Type.Optional(
      Type.String({
        description:
          'Present when the snapshot asked for does not exist; `epoch` is then the next 00:00 UTC (latest) or the date asked for',
      }),
    ),
  }),
);

export const FortuneQuery = Type.Object({
  ...PageQuery(V1_PAGE_SIZE_DEFAULT, V1_PAGE_SIZE_MAX),
  ...CursorQuery(
    "`pagination.nextCursor` of the page before, under the same filters: the companies after that page's last one (no repeat, no gap while companies are created); `page` then counts from it. 409 CONFLICT once a score snapshot changed the ranking",
  ),
  category: Type.Optional(Category),
  league: Type.Optional(StringEnum(LEAGUES, { description: 'Only companies of this league' })),
  api_key: Type.Optional(Type.String({ description: 'The API key, for clients that cannot send x-api-key' })),
});

export const FortuneEntry = Type.Object({
  rank: Type.Integer({ minimum: 1, description: 'Position in this (filtered) ranking' }),
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  category: OpenEnum(COMPANY_CATEGORIES, "The company's category"),
  league: StringEnum(LEAGUES),
  platformScore: Type.Number({ description: 'The overall score of the latest snapshot' }),
  tokenStatus: StringEnum(TOKEN_STATUSES),
  tokenSymbol: Nullable(Type.String()),
  creatorAddress: AddressOut(),
  logoUrl: Nullable(Type.String()),
  createdAt: IsoTimestamp,
  _count: Type.Object({ agents: Type.Integer({ minimum: 0, description: 'Agents not terminated' }) }),
  snapshotDate: Nullable(
    Type.String({
      format: 'date',
      description:
        "The date D (UTC) of the company's latest daily snapshot, whose overall is `platformScore`; null before its first",
    }),
  ),
  covers: Nullable(
    Covers(
      'The day that snapshot covers, [D - 24 h, D): the trades of volume and trading PnL (activity looks back 7 days from `to`, the treasury is read when the snapshot is taken); null before the first snapshot',
    ),
  ),
  components: Nullable(
    Type.Object(unbounded(scoreComponents), {
      description:
        "That snapshot's overall score, its five components, the raw values they were scored from and the referral boost (as in the internal Fortune List); null before the first snapshot",
    }),
  ),
});

export const FortuneResponse = v1List(FortuneEntry);

export const ScoreHistoryQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 366, default: 90, description: 'The last this many snapshots' }),
});
export const ScoreHistoryData = Type.Object({
  companyId: Type.String(),
  snapshots: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date', description: 'The snapshot date (its 00:00 UTC)' }),
      rank: Type.Integer(),
      overall: Type.Number(),
      treasuryScore: Type.Number(),
      tradingScore: Type.Number(),
      volumeScore: Type.Number(),
      activityScore: Type.Number(),
      completenessScore: Type.Number(),
      treasuryRaw: scoreComponents.treasuryRaw,
      tradingRaw: scoreComponents.tradingRaw,
      volumeRaw: scoreComponents.volumeRaw,
      activityRaw: scoreComponents.activityRaw,
      completenessRaw: scoreComponents.completenessRaw,
      referralBoost: scoreComponents.referralBoost,
    }),
    { description: 'Newest first' },
  ),
});
export const ScoreHistoryResponse = internalOk(ScoreHistoryData);
export const V1ScoreHistoryResponse = v1Ok(ScoreHistoryData);
