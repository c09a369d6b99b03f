// GET /api/fortune-list (docs/api/fortune.md "Fortune List entry (internal view)"): the Fortune List of a daily
// score snapshot (latest by default), by rank. Unknown query parameters are ignored, as elsewhere.
import { Type } from 'typebox';
import { chainDateForReads } from '../../../chain/time.ts';
import {
  COMPANY_CATEGORIES,
  COMPANY_STATUSES,
  FORTUNE_LIST_LIMIT_DEFAULT,
  FORTUNE_LIST_LIMIT_MAX,
  FORTUNE_LIST_LIMIT_MIN,
  LEAGUES,
} from '../../../constants.ts';
import { dayOf } from '../../../domain/costs/gas-budget.ts';
import { FORTUNE_EPOCH_PATTERN, getFortuneList } from '../../../domain/scores/queries.ts';
import { route } from '../../route.ts';
import { IsoTimestamp, Nullable, OpenEnum, StringEnum } from '../../schemas/common.ts';
import { Category, Covers, scoreComponents } from './shared.ts';

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

export const FortuneList = Type.Object({
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
});

export default route({
  url: '/api/fortune-list',
  auth: 'none',
  tag: 'fortune',
  summary: 'The Fortune List of a daily snapshot (latest by default), by rank',
  description:
    'Scores are taken daily at 00:00 UTC (docs/api/fortune.md). With no snapshot yet, or none on the date asked for, `companies` is empty and `message` says why.',
  query: FortuneListQuery,
  response: FortuneList,
  // With no snapshot yet the list names the next midnight, the chain's as the snapshots follow it
  // (chainDateForReads: never waits on a node that does not answer).
  now: async (deps) => (await chainDateForReads(deps.chain.publicClient, deps.now)).getTime(),
  // Kept until a table it was read from changes (read-cache.ts), and per day.
  cache: {
    name: 'fortune-list',
    tables: ['score_snapshots', 'companies'],
    key: ({ query, now }) =>
      `${query.limit}|${query.epoch}|${query.category ?? ''}|${query.league ?? ''}|${dayOf(now!)}`,
  },
  load: (deps, { query: { limit, epoch, category, league } }) =>
    getFortuneList(deps, { limit, epoch, category, league }),
});
