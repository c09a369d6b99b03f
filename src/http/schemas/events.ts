// The platform event (docs/api/events.md "Payloads"), one typed payload per type: what the event routes
// (routes/events/) document as each event's `data:` line and as the backfill's and the recent events' items, and
// what the API document names (plugins/api-docs.ts). The stream itself is written by the route, not serialized.
import { type Static, type TSchema, Type } from 'typebox';
import type { EventType } from '../../constants.ts';
import { AddressOut, IsoTimestamp, Nullable, StringEnum } from './common.ts';

/** An amount in base units (an integer), named with its asset and decimals: one form for every event amount. */
const BaseUnits = (description: string) =>
  Type.String({ pattern: '^[0-9]+$', description: `Decimal string of an integer: ${description}` });
const TxHash = Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'Transaction hash' });
/**
 * An amount in whole units of its asset, as a decimal string (REST's form): docs/api/README.md "Names and units".
 * Absent on events published before these forms were added.
 */
const DecimalString = (description: string) =>
  Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description: `Decimal string: ${description}` });

const DecisionEventData = Type.Object(
  {
    roundId: Type.String(),
    cycle: Type.Integer({ minimum: 0 }),
    directive: Type.String({ description: "The CEO's directive of the round" }),
    actionsCount: Type.Integer({ minimum: 0 }),
    decisionHash: Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'keccak256 of the canonical actions' }),
  },
  { description: 'A decision round completed' },
);

/** What every `trade` event carries: the company, the token, and where its log is on the chain. */
const tradePlace = {
  tokenSymbol: Nullable(Type.String()),
  companySlug: Type.String(),
  tokenAddress: AddressOut('Checksummed address of the company token'),
  txHash: TxHash,
  logIndex: Type.Integer({ minimum: 0, description: "The log's index in its block" }),
  blockNumber: Type.Integer({ minimum: 0 }),
  blockTime: IsoTimestamp,
  time: Type.Optional({
    ...IsoTimestamp,
    description:
      'The same as `blockTime`: the name REST trades use (docs/api/README.md "Names and units"). Absent on events published before it was added',
  }),
  transactionHash: Type.Optional({ ...TxHash, description: 'The same as `txHash`: the name REST trades use' }),
  removed: Type.Optional(
    Type.Literal(true, {
      description:
        'Present only on a correction: a reorg took this log off the chain. The same event as its announcement (same txHash and logIndex), sent again with removed: true; undo what the announcement did',
    }),
  ),
};

const TradeTradeData = Type.Object(
  {
    kind: Type.Literal('trade'),
    ...tradePlace,
    side: StringEnum(['buy', 'sell'] as const),
    amount: BaseUnits('company tokens bought or sold, in base units (18 decimals; 10^18 is one token)'),
    usdcAmount: BaseUnits('USDC paid (buy) or received (sell), in USDC base units (6 decimals)'),
    price: BaseUnits(
      'USDC per whole token of this trade, in USDC base units (6 decimals; 1000000 is 1 USDC): usdcAmount * 10^18 / amount, rounded down',
    ),
    tokenAmount: Type.Optional(
      DecimalString("company tokens bought or sold, in tokens (`amount` / 10^18): REST's `tokenAmount`"),
    ),
    usdcAmountRaw: Type.Optional(BaseUnits('the same as `usdcAmount` (USDC base units): the name REST trades use')),
    usdcAmountDecimal: Type.Optional(DecimalString('USDC paid or received, in USDC (`usdcAmount` / 10^6)')),
    priceRaw: Type.Optional(
      BaseUnits('the same as `price` (USDC base units per whole token): the name REST trades use'),
    ),
    priceDecimal: Type.Optional(DecimalString('USDC per whole token, in USDC (`price` / 10^6), rounded down')),
    priceExact: Type.Optional(
      DecimalString('USDC per whole token, full precision (18 decimals, rounded down): as on REST trades'),
    ),
    trader: AddressOut(),
    venue: StringEnum(['CURVE', 'POOL'] as const, { description: 'The bonding curve, or the v4 pool once graduated' }),
  },
  { $id: 'TradeEventTrade', description: 'A curve trade or a pool swap of a company token' },
);

const TradeLaunchData = Type.Object(
  { kind: Type.Literal('launch'), ...tradePlace },
  { $id: 'TradeEventLaunch', description: 'The company token was launched on its bonding curve (BONDING)' },
);

const TradeGraduationData = Type.Object(
  {
    kind: Type.Literal('graduation'),
    ...tradePlace,
    poolId: Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'The Uniswap v4 pool id (bytes32)' }),
  },
  { $id: 'TradeEventGraduation', description: 'The token graduated: its liquidity moved to a v4 pool (GRADUATED)' },
);

const ScoreEventData = Type.Object(
  {
    platformScore: Type.Number({ description: 'Score points (0-125), not money' }),
    previousScore: Type.Number({ description: 'Score points; 0 when there was none' }),
    rank: Type.Integer({ minimum: 1 }),
    snapshotDate: Type.Optional(
      Type.String({
        format: 'date',
        description:
          'The date D (UTC) of the snapshot that set the score; it covers [D - 24 h, D). Absent on events published before it was added',
      }),
    ),
  },
  { description: "The company's platformScore changed with a daily snapshot" },
);

const SnapshotSeasonData = Type.Object(
  {
    kind: Type.Literal('snapshot'),
    epoch: Nullable(
      Type.Integer({
        minimum: 0,
        description:
          "The reward epoch the snapshot counts toward (its 00:00 UTC is in the epoch's window); null before the first epoch or when the chain did not say",
      }),
    ),
    date: Type.String({ format: 'date', description: 'The snapshot date D (UTC); it covers [D - 24 h, D)' }),
    companies: Type.Integer({ minimum: 1, description: 'Companies in the snapshot' }),
  },
  { $id: 'SnapshotSeasonData', description: 'The daily score snapshot was taken' },
);

const EpochFinalizedSeasonData = Type.Object(
  {
    kind: Type.Literal('epoch_finalized'),
    epoch: Type.Integer({ minimum: 0 }),
    participantCount: Type.Integer({ minimum: 0 }),
    rewardPool: BaseUnits('primary tokens of the epoch, in base units (18 decimals)'),
    txHash: Nullable(TxHash),
  },
  { $id: 'EpochFinalizedSeasonData', description: 'A reward epoch was finalized on-chain: companies can claim' },
);

/** A `$ref` to a schema registered with the app (EVENT_SCHEMAS), typed as that schema. */
const ref = <T extends TSchema>(schema: T & { $id?: string }) => Type.Unsafe<Static<T>>({ $ref: `${schema.$id}#` });
/** `oneOf` named schemas chosen by a property, as the OpenAPI document declares a tagged union. */
const tagged = <T extends TSchema>(property: string, choices: [string, T & { $id?: string }][], description: string) =>
  Type.Unsafe<Static<T>>({
    oneOf: choices.map(([, schema]) => ref(schema)),
    discriminator: {
      propertyName: property,
      mapping: Object.fromEntries(choices.map(([value, schema]) => [value, `#/components/schemas/${schema.$id}`])),
    },
    description,
  });

const TradeEventData = tagged<typeof TradeTradeData | typeof TradeLaunchData | typeof TradeGraduationData>(
  'kind',
  [
    ['trade', TradeTradeData],
    ['launch', TradeLaunchData],
    ['graduation', TradeGraduationData],
  ],
  'A company-token trade, launch or graduation',
);

const SeasonEventData = tagged<typeof SnapshotSeasonData | typeof EpochFinalizedSeasonData>(
  'kind',
  [
    ['snapshot', SnapshotSeasonData],
    ['epoch_finalized', EpochFinalizedSeasonData],
  ],
  'A platform-wide event: it passes every company filter',
);

const eventOf = <T extends EventType, D extends TSchema>(type: T, data: D, id: string, description: string) =>
  Type.Object(
    {
      id: Type.String({ pattern: '^[0-9]+$', description: 'Decimal string of the event sequence; ordered' }),
      type: Type.Literal(type),
      companyId: Type.String({ description: 'The company concerned (for season events, the one the area names)' }),
      companySlug: Nullable(
        Type.String({
          description:
            'The slug of that company (v1 paths take either); null only when no company has that id. Added beside `companyId`',
        }),
      ),
      data,
      timestamp: IsoTimestamp,
    },
    { $id: id, description },
  );

const DecisionEvent = eventOf('decision', DecisionEventData, 'DecisionEvent', 'A decision round completed');
const TradeEvent = eventOf('trade', TradeEventData, 'TradeEvent', 'A token buy or sell executed');
const ScoreEvent = eventOf('score', ScoreEventData, 'ScoreEvent', 'Platform score updated');
const SeasonEvent = eventOf('season', SeasonEventData, 'SeasonEvent', 'A season or epoch event');

/** The named schemas of the events, registered with the app (app.addSchema) so the document can name them. */
export const EVENT_SCHEMAS = [
  TradeTradeData,
  TradeLaunchData,
  TradeGraduationData,

  SnapshotSeasonData,
  EpochFinalizedSeasonData,
  DecisionEvent,
  TradeEvent,
  ScoreEvent,
  SeasonEvent,
];

/**
 * A platform event (docs/api/events.md "Payloads"): what each event's `data:` line holds, one typed payload per type (`oneOf` by `type`).
 * Every amount is a decimal string of an integer in its asset's base units.
 */
export const PlatformEventSchema = tagged<
  typeof DecisionEvent | typeof TradeEvent | typeof ScoreEvent | typeof SeasonEvent
>(
  'type',
  [
    ['decision', DecisionEvent],
    ['trade', TradeEvent],
    ['score', ScoreEvent],
    ['season', SeasonEvent],
  ],
  'The JSON of the `data:` line of each event; the `connected` message holds { type, timestamp } and its `id:` line the id to resume from',
);
