// GET /api/v1/fortune (registered by v1.ts; docs/api/fortune.md "Fortune List entry (v1 view)"): companies ranked by
// platformScore, paged by page or by cursor. Its API key may also come in the query (`api_key`, for clients that
// cannot send x-api-key).
import { Type } from 'typebox';
import {
  COMPANY_CATEGORIES,
  LEAGUES,
  TOKEN_STATUSES,
  V1_PAGE_SIZE_DEFAULT,
  V1_PAGE_SIZE_MAX,
} from '../../../constants.ts';
import { createPageTotals } from '../../../db/page-total.ts';
import { listFortune } from '../../../domain/scores/queries.ts';
import { perApp, route } from '../../route.ts';
import {
  AddressOut,
  CursorQuery,
  IsoTimestamp,
  Nullable,
  OpenEnum,
  PageQuery,
  StringEnum,
} from '../../schemas/common.ts';
import { Category, Covers, scoreComponents, unbounded } from './shared.ts';

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

// The page totals a list keeps for one app's data.
const totalsOf = perApp(() => createPageTotals());

export default route({
  auth: 'apiKeyOrQuery',
  tag: 'fortune',
  summary: 'Companies ranked by platformScore (the overall score of the latest snapshot)',
  description:
    'Pages by `page` or by `cursor` (`pagination.nextCursor`, also the `Link` header rel="next"): a cursor continues after its page\'s last company without repeat or gap while companies are created; 409 CONFLICT when a daily score snapshot changed the ranking since the cursor was given (start again from the first page). docs/api/fortune.md "Cursors".',
  query: FortuneQuery,
  response: Type.Array(FortuneEntry),
  page: true,
  // Kept until a table they were read from changes (read-cache.ts); each response gets its own timestamp.
  cache: {
    name: 'v1-fortune',
    tables: ['companies', 'agents', 'score_snapshots'],
    key: ({ query }) =>
      `${query.page}|${query.limit}|${query.category ?? ''}|${query.league ?? ''}|${query.cursor ?? ''}`,
  },
  load: async (deps, { query }) => {
    const { page, limit, category, league, cursor } = query;
    const { items, ...at } = await listFortune(deps, { page, limit, category, league, cursor }, totalsOf(deps));
    return { data: items, pagination: { page, limit, ...at } };
  },
  v1: { url: '/fortune' },
});
