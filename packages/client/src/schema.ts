// Generated from GET /api/v1/openapi.json by openapi-typescript (npm run gen:api); do not edit.
// biome-ignore-all lint: generated
export interface paths {
    "/api/v1/changelog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API changelog (docs/api/changelog.md), newest first, as Markdown
         * @description What changed for a client of /api/v1 and of the event stream, with the deprecations and their Sunset dates (docs/api/README.md "Stability"). text/markdown; no key needed.
         */
        get: operations["getV1Changelog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a company bound for ever to one of the signer's unused access cards */
        post: operations["postV1Companies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A company by id or slug, with its agents (the detail of GET /api/companies/{id}) */
        get: operations["getV1CompaniesBySlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's last 10 decision rounds, most recent first, and each agent's budget in the latest */
        get: operations["getV1CompaniesBySlugDecisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/decisions/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run one decision round now (creator only); answers the finished round
         * @description Runs the seven phases and answers 201 with the round, COMPLETE or FAILED (with its phase and error). 409 while another round of the company runs; 400 when the company has no active agent.
         */
        post: operations["postV1CompaniesBySlugDecisionsRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/deploy-suite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Hire the seven C-suite agents (missing roles only) and run their identity pipeline */
        post: operations["postV1CompaniesBySlugDeploySuite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/engine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set the engine preset, autonomy level and master directive; resizes the compute machine */
        patch: operations["patchV1CompaniesBySlugEngine"];
        trace?: never;
    };
    "/api/v1/companies/{slug}/rewards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A company's rewards in its last 12 finalized epochs, newest first, and the total not yet claimed */
        get: operations["getV1CompaniesBySlugRewards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/scores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A company's score history: its daily snapshots, newest first */
        get: operations["getV1CompaniesBySlugScores"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A company's token (v1 detail view); 404 while it has none */
        get: operations["getV1CompaniesBySlugToken"];
        put?: never;
        /**
         * Launch the company's token on its bonding curve (creator only): PRE_PUBLIC -> BONDING, company PUBLIC
         * @description Deploys the token (1,000,000 supply, 18 decimals) through the token launcher and opens its USDC curve; it graduates into a Uniswap v4 pool when its market cap reaches GRADUATION_THRESHOLD_USD. 409 when the company already has a token or another launch is in flight; repeating the same request finishes an interrupted launch.
         */
        post: operations["postV1CompaniesBySlugToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/token/candles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Candles of the company token's price from its indexed trades (1m, 5m, 15m, 1h, 4h or 1d)
         * @description Without `from`: the last `limit` candles (before `to`), oldest first; `previousTo` is the `to` of the page before them. With `from`: the first `limit` from there; `nextFrom` is the `from` of the next page. Prices to 6 decimals, and full precision in `openExact`... (docs/api/tokens.md "Candles")
         */
        get: operations["getV1CompaniesBySlugTokenCandles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/token/position/{wallet}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A wallet's position in the company token at average cost, and its realised PnL
         * @description As GET /api/companies/{id}/token/position/{wallet}: quantity and costUsdc by the average-cost method, from the indexed trades. 404 for an unknown company
         */
        get: operations["getV1CompaniesBySlugTokenPositionByWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/token/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a buy or a sale of a given size would get now: amount out, price impact and fee
         * @description Read from the token launcher at the latest block (quoteBuy or quoteSell, priceOf): nothing is sent, and the trade itself is made on-chain by the trader. 404 for an unknown company or one without a token; 503 CHAIN_UNAVAILABLE when the chain does not answer (docs/api/tokens.md "Quote")
         */
        get: operations["getV1CompaniesBySlugTokenQuote"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/token/trades": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The company token's trades in chain order, newest first (or oldest first), filtered and paged
         * @description `data.trades` and `data.pagination` as ever, and the same `pagination` beside `data` as on every v1 list. `GET /api/v1/trades?company=` answers the same trades as a v1 list (`data` the array), which the client's `items()` pages (docs/api/tokens.md "Trades")
         */
        get: operations["getV1CompaniesBySlugTokenTrades"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/treasury": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the treasury address that receives epoch rewards, with the treasury's acceptance
         * @description The signer must hold the company's card. A treasury other than the signer's own wallet must accept the company: its EIP-712 signature of TreasuryAcceptance { companyId, treasury, chainId, deadline } (docs/api/companies.md). 400 BAD_REQUEST for the zero address, a platform contract, a company token or an agent wallet; 403 FORBIDDEN without a valid acceptance or for another company's treasury. The treasury score counts the treasury's time-weighted USDC balance from the moment it is set.
         */
        put: operations["putV1CompaniesBySlugTreasury"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/epochs/{epoch}/proof/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A company's Merkle leaf and proof in a finalized epoch, so anyone can check or claim it */
        get: operations["getV1EpochsByEpochProofBySlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/epochs/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Claim a company's reward of one finalized epoch (creator only); it mints to the recorded treasury
         * @description The oracle key calls the distributor's claim with the leaf recorded at finalization; the reward mints to the treasury address recorded then. Claimed before: alreadyClaimed true, txHash null, amount "0". 400 BAD_REQUEST when the epoch is not finalized, the company has no treasury address, or it has no reward in that epoch; 403 for anyone but the creator; 404 for an unknown company.
         */
        post: operations["postV1EpochsClaim"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/epochs/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The running reward epoch, read from the distributor contract */
        get: operations["getV1EpochsCurrent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The platform event stream (Server-Sent Events), filtered by company and type, resumable
         * @description Without `after`: the stream (text/event-stream) of the last EVENT_RETENTION_MS (default 1 hour). A resume (`Last-Event-ID` or `lastEventId`) from an id with later events of its filters (`types`, `companies`) older than that answers 410 EVENTS_EXPIRED before the stream starts, pointing to the backfill with the `after` to read from. With `after`: the events kept for EVENT_BACKFILL_RETENTION_MS (default 2 days) as JSON pages, oldest first, in the v1 list envelope; 410 EVENTS_EXPIRED when events after it were deleted, naming the oldest event held (docs/api/events.md "Backfill")
         */
        get: operations["getV1Events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fortune": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Companies ranked by platformScore (the overall score of the latest snapshot)
         * @description Pages by `page` or by `cursor` (`pagination.nextCursor`, also the `Link` header rel="next"): a cursor continues after its page's last company without repeat or gap while companies are created; 409 CONFLICT when a daily score snapshot changed the ranking since the cursor was given (start again from the first page). docs/api/fortune.md "Cursors".
         */
        get: operations["getV1Fortune"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/staking/position/{wallet}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A wallet's stake, boost, pending emission and APY in pool 0 (the primary token), read on-chain */
        get: operations["getV1StakingPositionByWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/staking/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pool 0's total effective stake, the emission rate and total, the base APY and the active pools */
        get: operations["getV1StakingStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Launched company tokens, newest first, with their market fields (docs/api/tokens.md) */
        get: operations["getV1Tokens"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trades": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Trades of every company token in chain order, newest first (or oldest first), filtered and paged
         * @description By company, trader, block time (`since`, `until`) and block (`fromBlock`, `toBlock`); `pagination.nextCursor` (and the `Link` header) gives the next page, with no repeat and no gap while trades are indexed (docs/api/tokens.md "Trades")
         */
        get: operations["getV1Trades"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/wallets/{wallet}/trades": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A wallet's trades across every company token, newest first, with its realised PnL over time
         * @description As GET /api/wallets/{wallet}/trades: cumulativeRealizedPnlUsdc is the PnL of every sale of the wallet up to the trade, whatever `limit` cuts off
         */
        get: operations["getV1WalletsByWalletTrades"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This API key's webhook endpoints, oldest first (all of them: a key holds a few at most) */
        get: operations["getV1Webhooks"];
        put?: never;
        /**
         * Register a webhook endpoint for this API key; the answer holds its signing secret, shown once
         * @description Deliveries of the platform events after its creation that pass its filters, signed per Standard Webhooks (docs/api/webhooks.md). At most 20 endpoints a key (409 CONFLICT past it); 400 VALIDATION_ERROR for a URL that is not http(s), carries credentials or points to a loopback, private or link-local address.
         */
        post: operations["postV1Webhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook endpoint of this API key: its filters and status (DISABLED, and why, once it is) */
        get: operations["getV1WebhooksById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook endpoint's delivery attempts (of one delivery with `delivery`), newest first, paged by cursor
         * @description Each attempt's HTTP status, latency and the first 1,024 bytes of the answer, or why no answer came. `total` counts the items of this page.
         */
        get: operations["getV1WebhooksByIdAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook endpoint's deliveries, newest first, paged by cursor
         * @description One delivery per event the endpoint receives, kept 7 days after it ends. `total` counts the items of this page.
         */
        get: operations["getV1WebhooksByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable a webhook endpoint: nothing more is sent, and its pending deliveries end FAILED */
        post: operations["postV1WebhooksByIdDisable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a disabled webhook endpoint again: it receives the events published from now on, and its failure clock starts over */
        post: operations["postV1WebhooksByIdEnable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new signing secret, shown once; the previous one keeps signing beside it for 24 hours */
        post: operations["postV1WebhooksByIdRotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A decision round completed */
        DecisionEvent: {
            /** @description The company concerned (for season events, the one the area names) */
            companyId: string;
            companySlug: string | null;
            /** @description A decision round completed */
            data: {
                actionsCount: number;
                cycle: number;
                /** @description keccak256 of the canonical actions */
                decisionHash: string;
                /** @description The CEO's directive of the round */
                directive: string;
                roundId: string;
            };
            /** @description Decimal string of the event sequence; ordered */
            id: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp
             */
            timestamp: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "decision";
        };
        /** @description A reward epoch was finalized on-chain: companies can claim */
        EpochFinalizedSeasonData: {
            epoch: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "epoch_finalized";
            participantCount: number;
            /** @description Decimal string of an integer: primary tokens of the epoch, in base units (18 decimals) */
            rewardPool: string;
            txHash: string | null;
        };
        /** @description Platform score updated */
        ScoreEvent: {
            /** @description The company concerned (for season events, the one the area names) */
            companyId: string;
            companySlug: string | null;
            /** @description The company's platformScore changed with a daily snapshot */
            data: {
                /** @description Score points (0-125), not money */
                platformScore: number;
                /** @description Score points; 0 when there was none */
                previousScore: number;
                rank: number;
                /**
                 * Format: date
                 * @description The date D (UTC) of the snapshot that set the score; it covers [D - 24 h, D). Absent on events published before it was added
                 */
                snapshotDate?: string;
            };
            /** @description Decimal string of the event sequence; ordered */
            id: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp
             */
            timestamp: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "score";
        };
        /** @description A season or epoch event */
        SeasonEvent: {
            /** @description The company concerned (for season events, the one the area names) */
            companyId: string;
            companySlug: string | null;
            /** @description A platform-wide event: it passes every company filter */
            data: components["schemas"]["SnapshotSeasonData"] | components["schemas"]["EpochFinalizedSeasonData"];
            /** @description Decimal string of the event sequence; ordered */
            id: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp
             */
            timestamp: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "season";
        };
        /** @description The daily score snapshot was taken */
        SnapshotSeasonData: {
            /** @description Companies in the snapshot */
            companies: number;
            /**
             * Format: date
             * @description The snapshot date D (UTC); it covers [D - 24 h, D)
             */
            date: string;
            epoch: number | null;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "snapshot";
        };
        TokenListItem: {
            /** @description Checksummed address */
            bondingCurveAddress: string;
            /** @description The company's category; new values may be added, so treat an unknown one as its family's default */
            category: ("DEFI_YIELD" | "SPOT_TRADING" | "DERIVATIVES" | "PRE_MARKET" | "AI_TOKENS" | "RWA" | "MULTICHAIN") | string;
            graduatedAt: string | null;
            graduationThreshold: number;
            id: string;
            name: string;
            platformScore: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp
             */
            publicAt: string;
            slug: string;
            /** @description Checksummed address */
            tokenAddress: string;
            /** @enum {string} */
            tokenStatus: "BONDING" | "GRADUATED";
            tokenSymbol: string;
            v4PoolAddress: string | null;
        } & components["schemas"]["TokenMarket"];
        TokenMarket: {
            /** @description Seconds since the launch, by the chain's clock */
            ageSeconds: number;
            /** @description Buys in the 24 hours */
            buys24h: number;
            /** @description The chain the token lives on */
            chainId: number;
            /** @description The token's decimals (18) */
            decimals: number;
            fdv: string | null;
            /** @description Market cap as a percentage of the graduation threshold (2 decimals); 100 once graduated */
            graduationProgress: number;
            high24h: string | null;
            /** @description Addresses other than the zero address holding a positive balance, from the Transfer logs (contracts included) */
            holderCount: number;
            lastTradeAt: string | null;
            liquidity: string | null;
            logoUrl: string | null;
            low24h: string | null;
            marketCap: string | null;
            poolId: string | null;
            price: string | null;
            priceChange24h: number | null;
            /** @description What the token is priced and traded in */
            quoteToken: {
                /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                address: string;
                decimals: number;
                /** @enum {string} */
                symbol: "USDC";
            };
            /** @description Sells in the 24 hours */
            sells24h: number;
            /** @description Minted less burned, in base units (10^-decimals tokens) */
            totalSupply: string;
            /** @description USDC traded over the 24 hours before the chain's latest block */
            volume24h: string;
        };
        /** @description A token buy or sell executed */
        TradeEvent: {
            /** @description The company concerned (for season events, the one the area names) */
            companyId: string;
            companySlug: string | null;
            /** @description A company-token trade, launch or graduation */
            data: components["schemas"]["TradeEventTrade"] | components["schemas"]["TradeEventLaunch"] | components["schemas"]["TradeEventGraduation"];
            /** @description Decimal string of the event sequence; ordered */
            id: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp
             */
            timestamp: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "trade";
        };
        /** @description The token graduated: its liquidity moved to a v4 pool (GRADUATED) */
        TradeEventGraduation: {
            blockNumber: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp
             */
            blockTime: string;
            companySlug: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "graduation";
            /** @description The log's index in its block */
            logIndex: number;
            /** @description The Uniswap v4 pool id (bytes32) */
            poolId: string;
            /**
             * @description Present only on a correction: a reorg took this log off the chain. The same event as its announcement (same txHash and logIndex), sent again with removed: true; undo what the announcement did
             * @enum {boolean}
             */
            removed?: true;
            /**
             * Format: date-time
             * @description The same as `blockTime`: the name REST trades use (docs/api/README.md "Names and units"). Absent on events published before it was added
             */
            time?: string;
            /** @description Checksummed address of the company token */
            tokenAddress: string;
            tokenSymbol: string | null;
            /** @description The same as `txHash`: the name REST trades use */
            transactionHash?: string;
            /** @description Transaction hash */
            txHash: string;
        };
        /** @description The company token was launched on its bonding curve (BONDING) */
        TradeEventLaunch: {
            blockNumber: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp
             */
            blockTime: string;
            companySlug: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "launch";
            /** @description The log's index in its block */
            logIndex: number;
            /**
             * @description Present only on a correction: a reorg took this log off the chain. The same event as its announcement (same txHash and logIndex), sent again with removed: true; undo what the announcement did
             * @enum {boolean}
             */
            removed?: true;
            /**
             * Format: date-time
             * @description The same as `blockTime`: the name REST trades use (docs/api/README.md "Names and units"). Absent on events published before it was added
             */
            time?: string;
            /** @description Checksummed address of the company token */
            tokenAddress: string;
            tokenSymbol: string | null;
            /** @description The same as `txHash`: the name REST trades use */
            transactionHash?: string;
            /** @description Transaction hash */
            txHash: string;
        };
        /** @description A curve trade or a pool swap of a company token */
        TradeEventTrade: {
            /** @description Decimal string of an integer: company tokens bought or sold, in base units (18 decimals; 10^18 is one token) */
            amount: string;
            blockNumber: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp
             */
            blockTime: string;
            companySlug: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "trade";
            /** @description The log's index in its block */
            logIndex: number;
            /** @description Decimal string of an integer: USDC per whole token of this trade, in USDC base units (6 decimals; 1000000 is 1 USDC): usdcAmount * 10^18 / amount, rounded down */
            price: string;
            /** @description Decimal string: USDC per whole token, in USDC (`price` / 10^6), rounded down */
            priceDecimal?: string;
            /** @description Decimal string: USDC per whole token, full precision (18 decimals, rounded down): as on REST trades */
            priceExact?: string;
            /** @description Decimal string of an integer: the same as `price` (USDC base units per whole token): the name REST trades use */
            priceRaw?: string;
            /**
             * @description Present only on a correction: a reorg took this log off the chain. The same event as its announcement (same txHash and logIndex), sent again with removed: true; undo what the announcement did
             * @enum {boolean}
             */
            removed?: true;
            /** @enum {string} */
            side: "buy" | "sell";
            /**
             * Format: date-time
             * @description The same as `blockTime`: the name REST trades use (docs/api/README.md "Names and units"). Absent on events published before it was added
             */
            time?: string;
            /** @description Checksummed address of the company token */
            tokenAddress: string;
            /** @description Decimal string: company tokens bought or sold, in tokens (`amount` / 10^18): REST's `tokenAmount` */
            tokenAmount?: string;
            tokenSymbol: string | null;
            /** @description Checksummed address */
            trader: string;
            /** @description The same as `txHash`: the name REST trades use */
            transactionHash?: string;
            /** @description Transaction hash */
            txHash: string;
            /** @description Decimal string of an integer: USDC paid (buy) or received (sell), in USDC base units (6 decimals) */
            usdcAmount: string;
            /** @description Decimal string: USDC paid or received, in USDC (`usdcAmount` / 10^6) */
            usdcAmountDecimal?: string;
            /** @description Decimal string of an integer: the same as `usdcAmount` (USDC base units): the name REST trades use */
            usdcAmountRaw?: string;
            /**
             * @description The bonding curve, or the v4 pool once graduated
             * @enum {string}
             */
            venue: "CURVE" | "POOL";
        };
        V1Error: {
            error: {
                /** @description What went wrong, for programs (the status says its family); new values may be added, so treat an unknown one as its family's default */
                code: ("VALIDATION_ERROR" | "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "IDEMPOTENCY_KEY_REUSED" | "IDEMPOTENCY_KEY_IN_USE" | "RATE_LIMITED" | "EVENTS_EXPIRED" | "GAS_BUDGET_EXCEEDED" | "MODEL_SPEND_CAP_REACHED" | "CHAIN_UNAVAILABLE" | "DATABASE_UNAVAILABLE" | "INTERNAL_ERROR") | string;
                details?: {
                    message: string;
                    path: string;
                }[];
                message: string;
            };
            meta: {
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC timestamp
                 */
                timestamp: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Who may keep the answer: `private, max-age=0, must-revalidate` on reads with an API key (only the client, revalidating with the ETag before each use; shared caches do not store it), `no-cache` on public ones (any cache, revalidating before each use) */
        "Cache-Control": string;
        /** @description Weak entity tag of the body; send it back in If-None-Match to get 304 while it is unchanged */
        ETag: string;
        /** @description That policy now: `"key";r=597;t=30` is 597 requests left, the window ending in 30 s (draft-ietf-httpapi-ratelimit-headers-10). A 304 is not counted. */
        RateLimit: string;
        /** @description The rate-limit policy that counted the request (draft-ietf-httpapi-ratelimit-headers-10): `"key";q=600;w=60` is 600 requests per 60 s for the API key (`ip`: for the client address, without a valid key) */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before retrying */
        "Retry-After": number;
        /** @description The scheme to authenticate with (RFC 9110 11.6.1), on every 401: `ApiKey realm="ai-economy", header="x-api-key"` (with `, query="api_key"` where the query parameter is accepted) for a missing or invalid API key, `Wallet realm="ai-economy"` for a missing or invalid wallet signature, `Bearer realm="ai-economy"` for a scheduler or admin secret */
        "WWW-Authenticate": string;
        /** @description Requests allowed per window in this bucket */
        "X-RateLimit-Limit": number;
        /** @description Requests left in this window */
        "X-RateLimit-Remaining": number;
        /** @description Seconds until the window ends */
        "X-RateLimit-Reset": number;
        /** @description The request's id: the client's `x-request-id` when it is 1-128 characters `[A-Za-z0-9._:-]`, else a UUID; it is in every log line of the request */
        "X-Request-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getV1Changelog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The changelog */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/markdown": string;
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    postV1Companies: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry (docs/api/README.md "Idempotent writes"): per signer, the same request again within 24 hours gets the first answer with Idempotent-Replayed: true, without running again; another request under the same key gets 409 IDEMPOTENCY_KEY_REUSED, and one sent while the first still runs 409 IDEMPOTENCY_KEY_IN_USE. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    category: "DEFI_YIELD" | "SPOT_TRADING" | "DERIVATIVES" | "PRE_MARKET" | "AI_TOKENS" | "RWA" | "MULTICHAIN";
                    description?: string;
                    /** Format: uri */
                    logoUrl?: string;
                    name: string;
                    referrerCompanyId?: string;
                    slug?: string;
                    /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                    treasuryAddress?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description true when this is the stored first answer to a request sent again with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Agents not terminated, in C-suite order */
                            agents: {
                                id: string;
                                name: string;
                                role: ("CFO" | "CTO" | "CMO" | "COO" | "CSO" | "CISO" | "CRO") | null;
                                /** @enum {string} */
                                status: "PENDING" | "DEPLOYING" | "ACTIVE" | "PAUSED" | "TERMINATED" | "FAILED";
                            }[];
                            /** @enum {string} */
                            autonomyLevel: "HUMAN_DIRECTED" | "STRATEGY_AUTONOMOUS" | "FULLY_AUTONOMOUS";
                            /** @description Whether the card is locked on-chain (markCompanyDeployed confirmed) */
                            cardLocked: boolean;
                            /** @description The access card bound to this company for ever */
                            cardTokenId: number;
                            /** @description The company's category; new values may be added, so treat an unknown one as its family's default */
                            category: ("DEFI_YIELD" | "SPOT_TRADING" | "DERIVATIVES" | "PRE_MARKET" | "AI_TOKENS" | "RWA" | "MULTICHAIN") | string;
                            ceoPrompt: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            /** @description Checksummed address */
                            creatorAddress: string;
                            custody: {
                                /** @description The Safe's only owner: accepts what the card's holder signs */
                                owner: string;
                                /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                                rolesModule: string;
                                /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                                safe: string;
                            } | null;
                            description: string | null;
                            engineConfig: {
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                briefGeneration?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                ceoSynthesis?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                jsonExtraction?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                roleExecution?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                scrapeSummary?: string;
                            } | null;
                            /** @enum {string} */
                            enginePreset: "BUDGET" | "EFFICIENT" | "BALANCED" | "PREMIUM";
                            id: string;
                            /** @enum {string} */
                            league: "MACHINE" | "HUMAN";
                            logoUrl: string | null;
                            masterDirective: string | null;
                            name: string;
                            /** @description Gas the platform paid today for this company's transactions (deploy-suite, token launch, decision anchoring, claims), in gas units (costTodayWei: the native currency paid), and the daily budget; a request that would go past it answers 429 GAS_BUDGET_EXCEEDED until resetsAt */
                            platformGas: {
                                /** @description Decimal string of a whole-number amount */
                                budget: string;
                                /** @description Decimal string of a whole-number amount */
                                costTodayWei: string;
                                /**
                                 * Format: date
                                 * @description The UTC day counted
                                 */
                                day: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC timestamp
                                 */
                                resetsAt: string;
                                /** @description Decimal string of a whole-number amount */
                                usedToday: string;
                            };
                            platformScore: number;
                            referrerCompanyId: string | null;
                            slug: string;
                            /** @enum {string} */
                            status: "INCORPORATING" | "HIRING" | "PRIVATE" | "PUBLIC";
                            tokenAddress: string | null;
                            /** @enum {string} */
                            tokenStatus: "PRE_PUBLIC" | "BONDING" | "GRADUATED";
                            tokenSymbol: string | null;
                            toolkitConfig: {
                                /** @description Which tokens the agents may buy: platform minimums a company may tighten but not loosen (docs/api/agents.md "Buy rules") */
                                buyRules?: {
                                    /** @description Largest buy as a share of the USDC in the token's curve or pool, in basis points (platform maximum 200) */
                                    maxLiquidityBps?: number;
                                    /** @description Fewest distinct traders over 24 h, not counting the token's company's own wallets (platform minimum 10) */
                                    minDistinctTraders?: number;
                                    /** @description Youngest token (hours since launch, the chain's clock) an agent may buy (platform minimum 24) */
                                    minTokenAgeHours?: number;
                                    /** @description Hours without buying a token again after an agent sold it at a loss (platform minimum 24) */
                                    stopLossCooldownHours?: number;
                                };
                                disabledTools?: string[];
                                enabledTools?: string[];
                                /** @description Hard limits on the agents' trading tools, checked before anything is signed (docs/api/decisions.md) */
                                limits?: {
                                    /** @description Largest USDC the company's agents trade in one chain day (default 1000; 0 stops trading) */
                                    maxDailyNotionalUsdc?: string;
                                    /** @description Largest value of one token the company's agents may hold after a buy, in USDC (default 2500) */
                                    maxPositionUsdc?: string;
                                    /** @description Largest slippage a trade accepts from its quote, in basis points (default 300) */
                                    maxSlippageBps?: number;
                                    /** @description Largest share of the wallet's balance one buy or stake may use, in basis points (default 2500) */
                                    maxTradeBps?: number;
                                };
                            } | null;
                            treasuryAddress: string | null;
                            treasuryProvenAt: string | null;
                            /**
                             * @description PROVEN: the company proved it controls its treasury (the treasury signed its acceptance, or is the creator's wallet), which then counts toward the treasury score from treasuryProvenAt; UNPROVEN: set without proof (before proofs were asked for, or at creation), it scores 0 until the creator sets it again with PUT /api/companies/{id}/treasury; NONE: no treasury
                             * @enum {string}
                             */
                            treasuryStatus: "NONE" | "UNPROVEN" | "PROVEN";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            updatedAt: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description FORBIDDEN: the credentials are valid but not those of the creator or card holder */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description CONFLICT: the write collides with another or was done already; IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used for another request; IDEMPOTENCY_KEY_IN_USE: a request with it still runs (retry after a second; no Retry-After, which belongs to 429 and 503) */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1CompaniesBySlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Agents not terminated, in C-suite order */
                            agents: {
                                id: string;
                                name: string;
                                role: ("CFO" | "CTO" | "CMO" | "COO" | "CSO" | "CISO" | "CRO") | null;
                                /** @enum {string} */
                                status: "PENDING" | "DEPLOYING" | "ACTIVE" | "PAUSED" | "TERMINATED" | "FAILED";
                            }[];
                            /** @enum {string} */
                            autonomyLevel: "HUMAN_DIRECTED" | "STRATEGY_AUTONOMOUS" | "FULLY_AUTONOMOUS";
                            /** @description Whether the card is locked on-chain (markCompanyDeployed confirmed) */
                            cardLocked: boolean;
                            /** @description The access card bound to this company for ever */
                            cardTokenId: number;
                            /** @description The company's category; new values may be added, so treat an unknown one as its family's default */
                            category: ("DEFI_YIELD" | "SPOT_TRADING" | "DERIVATIVES" | "PRE_MARKET" | "AI_TOKENS" | "RWA" | "MULTICHAIN") | string;
                            ceoPrompt: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            /** @description Checksummed address */
                            creatorAddress: string;
                            custody: {
                                /** @description The Safe's only owner: accepts what the card's holder signs */
                                owner: string;
                                /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                                rolesModule: string;
                                /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                                safe: string;
                            } | null;
                            description: string | null;
                            engineConfig: {
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                briefGeneration?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                ceoSynthesis?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                jsonExtraction?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                roleExecution?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                scrapeSummary?: string;
                            } | null;
                            /** @enum {string} */
                            enginePreset: "BUDGET" | "EFFICIENT" | "BALANCED" | "PREMIUM";
                            id: string;
                            /** @enum {string} */
                            league: "MACHINE" | "HUMAN";
                            logoUrl: string | null;
                            masterDirective: string | null;
                            name: string;
                            /** @description Gas the platform paid today for this company's transactions (deploy-suite, token launch, decision anchoring, claims), in gas units (costTodayWei: the native currency paid), and the daily budget; a request that would go past it answers 429 GAS_BUDGET_EXCEEDED until resetsAt */
                            platformGas: {
                                /** @description Decimal string of a whole-number amount */
                                budget: string;
                                /** @description Decimal string of a whole-number amount */
                                costTodayWei: string;
                                /**
                                 * Format: date
                                 * @description The UTC day counted
                                 */
                                day: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC timestamp
                                 */
                                resetsAt: string;
                                /** @description Decimal string of a whole-number amount */
                                usedToday: string;
                            };
                            platformScore: number;
                            referrerCompanyId: string | null;
                            slug: string;
                            /** @enum {string} */
                            status: "INCORPORATING" | "HIRING" | "PRIVATE" | "PUBLIC";
                            tokenAddress: string | null;
                            /** @enum {string} */
                            tokenStatus: "PRE_PUBLIC" | "BONDING" | "GRADUATED";
                            tokenSymbol: string | null;
                            toolkitConfig: {
                                /** @description Which tokens the agents may buy: platform minimums a company may tighten but not loosen (docs/api/agents.md "Buy rules") */
                                buyRules?: {
                                    /** @description Largest buy as a share of the USDC in the token's curve or pool, in basis points (platform maximum 200) */
                                    maxLiquidityBps?: number;
                                    /** @description Fewest distinct traders over 24 h, not counting the token's company's own wallets (platform minimum 10) */
                                    minDistinctTraders?: number;
                                    /** @description Youngest token (hours since launch, the chain's clock) an agent may buy (platform minimum 24) */
                                    minTokenAgeHours?: number;
                                    /** @description Hours without buying a token again after an agent sold it at a loss (platform minimum 24) */
                                    stopLossCooldownHours?: number;
                                };
                                disabledTools?: string[];
                                enabledTools?: string[];
                                /** @description Hard limits on the agents' trading tools, checked before anything is signed (docs/api/decisions.md) */
                                limits?: {
                                    /** @description Largest USDC the company's agents trade in one chain day (default 1000; 0 stops trading) */
                                    maxDailyNotionalUsdc?: string;
                                    /** @description Largest value of one token the company's agents may hold after a buy, in USDC (default 2500) */
                                    maxPositionUsdc?: string;
                                    /** @description Largest slippage a trade accepts from its quote, in basis points (default 300) */
                                    maxSlippageBps?: number;
                                    /** @description Largest share of the wallet's balance one buy or stake may use, in basis points (default 2500) */
                                    maxTradeBps?: number;
                                };
                            } | null;
                            treasuryAddress: string | null;
                            treasuryProvenAt: string | null;
                            /**
                             * @description PROVEN: the company proved it controls its treasury (the treasury signed its acceptance, or is the creator's wallet), which then counts toward the treasury score from treasuryProvenAt; UNPROVEN: set without proof (before proofs were asked for, or at creation), it scores 0 until the creator sets it again with PUT /api/companies/{id}/treasury; NONE: no treasury
                             * @enum {string}
                             */
                            treasuryStatus: "NONE" | "UNPROVEN" | "PROVEN";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            updatedAt: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1CompaniesBySlugDecisions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            company: {
                                category: string;
                                id: string;
                                name: string;
                            };
                            latestBudget: {
                                agentId: string;
                                /** @description USD */
                                allocatedBudget: number;
                                chainReadCost: number;
                                chainReads: number;
                                llmCalls: number;
                                llmCost: number;
                                refused: {
                                    reason: string;
                                    tool: string;
                                }[];
                                role: string;
                                scrapeCalls: number;
                                scrapeCost: number;
                                spentBudget: number;
                            }[];
                            rounds: {
                                /** @description The decided actions as hashed ({ role, tool, args, rationale }), each with its outcome. keccak256 of the canonical JSON of { companyId, cycle, directive, actions } (without the outcomes) is `decisionHash` */
                                actions: {
                                    args: {
                                        [key: string]: unknown;
                                    };
                                    outcome: {
                                        /**
                                         * @description done; refused (a veto, the budget, a trading limit: nothing signed); failed (an error, or a transaction that reverted on-chain); not_run (the round stopped before it)
                                         * @enum {string}
                                         */
                                        status: "done" | "refused" | "failed" | "not_run";
                                        text: string | null;
                                        txHash: string | null;
                                    };
                                    /** @description The reason the decision gives for the action */
                                    rationale: string;
                                    role: string;
                                    tool: string;
                                }[];
                                actionsExecuted: string[];
                                anchoredTxHash: string | null;
                                ceoDecision: {
                                    actions: string[];
                                    directive: string;
                                };
                                companyId: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC timestamp
                                 */
                                createdAt: string;
                                cycle: number;
                                decisionHash: string | null;
                                error?: string | null;
                                failedPhase?: string;
                                id: string;
                                llmTokensUsed: number;
                                phases: {
                                    /** @description Prompt tokens the providers read from their prompt caches (counted in `tokens` too), when they report them */
                                    cachedTokens?: number;
                                    calls: number;
                                    /** @description The models the company's preset and engineConfig chose for the phase (a model without an endpoint is answered by the built-in one) */
                                    configuredModels?: string[];
                                    /** @description USD */
                                    cost: number;
                                    /** @description Some call's cost is unknown: a model no price table knows, whose endpoint did not say what it billed; `cost` holds only what is known */
                                    costUnknown?: boolean;
                                    durationMs: number;
                                    error?: string;
                                    /** @description The models that answered the phase: model ids, or `builtin` when the built-in model answered */
                                    models: string[];
                                    /** @description What went wrong without failing the phase: a role agent whose model failed (its proposals counted as none), an answer cut off at its token limit and kept */
                                    notes?: string[];
                                    phase: string;
                                    tokens: number;
                                    /** @description Some call's token counts were estimated (text length / 4): an answer without usage, or with figures no call could have used */
                                    usageEstimated?: boolean;
                                }[];
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETE" | "FAILED";
                                totalDurationMs: number;
                                /** @enum {string} */
                                trigger: "SCHEDULED" | "MANUAL";
                            }[];
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    postV1CompaniesBySlugDecisionsRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry (docs/api/README.md "Idempotent writes"): per signer, the same request again within 24 hours gets the first answer with Idempotent-Replayed: true, without running again; another request under the same key gets 409 IDEMPOTENCY_KEY_REUSED, and one sent while the first still runs 409 IDEMPOTENCY_KEY_IN_USE. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description true when this is the stored first answer to a request sent again with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The decided actions as hashed ({ role, tool, args, rationale }), each with its outcome. keccak256 of the canonical JSON of { companyId, cycle, directive, actions } (without the outcomes) is `decisionHash` */
                            actions: {
                                args: {
                                    [key: string]: unknown;
                                };
                                outcome: {
                                    /**
                                     * @description done; refused (a veto, the budget, a trading limit: nothing signed); failed (an error, or a transaction that reverted on-chain); not_run (the round stopped before it)
                                     * @enum {string}
                                     */
                                    status: "done" | "refused" | "failed" | "not_run";
                                    text: string | null;
                                    txHash: string | null;
                                };
                                /** @description The reason the decision gives for the action */
                                rationale: string;
                                role: string;
                                tool: string;
                            }[];
                            actionsExecuted: string[];
                            anchoredTxHash: string | null;
                            ceoDecision: {
                                actions: string[];
                                directive: string;
                            };
                            companyId: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            cycle: number;
                            decisionHash: string | null;
                            error?: string | null;
                            failedPhase?: string;
                            id: string;
                            llmTokensUsed: number;
                            phases: {
                                /** @description Prompt tokens the providers read from their prompt caches (counted in `tokens` too), when they report them */
                                cachedTokens?: number;
                                calls: number;
                                /** @description The models the company's preset and engineConfig chose for the phase (a model without an endpoint is answered by the built-in one) */
                                configuredModels?: string[];
                                /** @description USD */
                                cost: number;
                                /** @description Some call's cost is unknown: a model no price table knows, whose endpoint did not say what it billed; `cost` holds only what is known */
                                costUnknown?: boolean;
                                durationMs: number;
                                error?: string;
                                /** @description The models that answered the phase: model ids, or `builtin` when the built-in model answered */
                                models: string[];
                                /** @description What went wrong without failing the phase: a role agent whose model failed (its proposals counted as none), an answer cut off at its token limit and kept */
                                notes?: string[];
                                phase: string;
                                tokens: number;
                                /** @description Some call's token counts were estimated (text length / 4): an answer without usage, or with figures no call could have used */
                                usageEstimated?: boolean;
                            }[];
                            /** @enum {string} */
                            status: "RUNNING" | "COMPLETE" | "FAILED";
                            totalDurationMs: number;
                            /** @enum {string} */
                            trigger: "SCHEDULED" | "MANUAL";
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description FORBIDDEN: the credentials are valid but not those of the creator or card holder */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description CONFLICT: the write collides with another or was done already; IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used for another request; IDEMPOTENCY_KEY_IN_USE: a request with it still runs (retry after a second; no Retry-After, which belongs to 429 and 503) */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds; GAS_BUDGET_EXCEEDED when the company's daily gas budget would be passed */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    postV1CompaniesBySlugDeploySuite: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry (docs/api/README.md "Idempotent writes"): per signer, the same request again within 24 hours gets the first answer with Idempotent-Replayed: true, without running again; another request under the same key gets 409 IDEMPOTENCY_KEY_REUSED, and one sent while the first still runs 409 IDEMPOTENCY_KEY_IN_USE. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description true when this is the stored first answer to a request sent again with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                role: "CFO" | "CTO" | "CMO" | "COO" | "CSO" | "CISO" | "CRO";
                                /** @enum {string} */
                                status: "PENDING" | "DEPLOYING" | "ACTIVE" | "PAUSED" | "TERMINATED" | "FAILED";
                            }[];
                            dualityResults: {
                                [key: string]: {
                                    errors: string[];
                                    status: string;
                                };
                            };
                            skipped: ("CFO" | "CTO" | "CMO" | "COO" | "CSO" | "CISO" | "CRO")[];
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description FORBIDDEN: the credentials are valid but not those of the creator or card holder */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_USE: the Idempotency-Key was used for another request, or a request with it still runs (retry after a second) */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds; GAS_BUDGET_EXCEEDED when the company's daily gas budget would be passed */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    patchV1CompaniesBySlugEngine: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry (docs/api/README.md "Idempotent writes"): per signer, the same request again within 24 hours gets the first answer with Idempotent-Replayed: true, without running again; another request under the same key gets 409 IDEMPOTENCY_KEY_REUSED, and one sent while the first still runs 409 IDEMPOTENCY_KEY_IN_USE. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    autonomyLevel?: "HUMAN_DIRECTED" | "STRATEGY_AUTONOMOUS" | "FULLY_AUTONOMOUS";
                    dailyModelSpendCap?: string | null;
                    /** @enum {string} */
                    enginePreset?: "BUDGET" | "EFFICIENT" | "BALANCED" | "PREMIUM";
                    masterDirective?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description true when this is the stored first answer to a request sent again with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            autonomyLevel: "HUMAN_DIRECTED" | "STRATEGY_AUTONOMOUS" | "FULLY_AUTONOMOUS";
                            dailyModelSpendCap: string;
                            machineResults: {
                                /** @enum {string} */
                                envUpdate: "ok" | "skipped" | "failed";
                                /** @enum {string} */
                                resize: "ok" | "skipped" | "failed";
                            };
                            masterDirective: string | null;
                            masterDirectiveTokens: {
                                [key: string]: string;
                            };
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description FORBIDDEN: the credentials are valid but not those of the creator or card holder */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_USE: the Idempotency-Key was used for another request, or a request with it still runs (retry after a second) */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1CompaniesBySlugRewards: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The last 12 finalized epochs with a reward, newest first */
                            claimable: {
                                alreadyClaimed: boolean;
                                /** @description Decimal string of a whole-number amount */
                                amount: string;
                                epochNumber: number;
                            }[];
                            companyId: string;
                            /** @description Decimal string of a whole-number amount */
                            totalClaimable: string;
                            /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                            treasuryAddress: string;
                        } | {
                            claimable: {
                                alreadyClaimed: boolean;
                                /** @description Decimal string of a whole-number amount */
                                amount: string;
                                epochNumber: number;
                            }[];
                            companyId: string;
                            /** @enum {string} */
                            reason: "no_treasury_address";
                            /** @enum {string} */
                            totalClaimable: "0";
                            treasuryAddress: null;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1CompaniesBySlugScores: {
        parameters: {
            query?: {
                /** @description The last this many snapshots */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            companyId: string;
                            /** @description Newest first */
                            snapshots: {
                                /** @description Completed SCHEDULED decision rounds in the 7 days before the snapshot (manual rounds do not count) */
                                activityRaw: number;
                                activityScore: number;
                                /** @description Share of the 11 profile items filled */
                                completenessRaw: number;
                                completenessScore: number;
                                /**
                                 * Format: date
                                 * @description The snapshot date (its 00:00 UTC)
                                 */
                                date: string;
                                overall: number;
                                rank: number;
                                /** @description 0.01 per company referred, at most 0.25 */
                                referralBoost: number;
                                /** @description Sells minus buys of the company's agents over the day before the snapshot; may be negative, in USDC (up to 6 decimals) */
                                tradingRaw: number;
                                tradingScore: number;
                                /** @description USDC balance of the treasury, in USDC (up to 6 decimals) */
                                treasuryRaw: number;
                                treasuryScore: number;
                                /** @description Counted volume of the company's token over the day before the snapshot: each trader's net position change, at most 25% of the total per trader, in USDC (up to 6 decimals) */
                                volumeRaw: number;
                                volumeScore: number;
                            }[];
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1CompaniesBySlugToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            bondingCurve: {
                                /** @description The token launcher, which holds every curve */
                                address: string;
                                graduated: boolean;
                                graduatedAt: string | null;
                                graduationThreshold: number;
                            };
                            companyId: string;
                            /** @description The launch transaction */
                            launchTxHash: string;
                            name: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            publicAt: string;
                            slug: string;
                            /** @description Checksummed address */
                            tokenAddress: string;
                            /** @enum {string} */
                            tokenStatus: "BONDING" | "GRADUATED";
                            tokenSymbol: string;
                            v4Pool: {
                                address: string | null;
                            };
                        } & components["schemas"]["TokenMarket"];
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    postV1CompaniesBySlugToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry (docs/api/README.md "Idempotent writes"): per signer, the same request again within 24 hours gets the first answer with Idempotent-Replayed: true, without running again; another request under the same key gets 409 IDEMPOTENCY_KEY_REUSED, and one sent while the first still runs 409 IDEMPOTENCY_KEY_IN_USE. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1-64 characters */
                    name: string;
                    /** @description 2-10 characters, A-Z and 0-9 */
                    symbol: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description true when this is the stored first answer to a request sent again with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            graduatedAt: null;
                            /** @enum {number} */
                            graduationProgress: 0;
                            marketCap: null;
                            price: null;
                            slug: string;
                            /** @enum {string} */
                            status: "PRE_PUBLIC";
                            tokenAddress: null;
                            tokenSymbol: null;
                            v4PoolAddress: null;
                        } | {
                            graduated: boolean;
                            graduatedAt: string | null;
                            graduationProgress: number;
                            /** @description USD (USDC) */
                            graduationThreshold: number;
                            /** @description USDC with up to 6 decimals */
                            marketCap: string;
                            name: string;
                            /** @description USDC with up to 6 decimals */
                            price: string;
                            slug: string;
                            /** @enum {string} */
                            status: "BONDING" | "GRADUATED";
                            /** @description Checksummed address */
                            tokenAddress: string;
                            tokenSymbol: string;
                            v4PoolAddress: string | null;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description FORBIDDEN: the credentials are valid but not those of the creator or card holder */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description CONFLICT: the write collides with another or was done already; IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used for another request; IDEMPOTENCY_KEY_IN_USE: a request with it still runs (retry after a second; no Retry-After, which belongs to 429 and 503) */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds; GAS_BUDGET_EXCEEDED when the company's daily gas budget would be passed */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1CompaniesBySlugTokenCandles: {
        parameters: {
            query: {
                /** @description Unix seconds: the first `limit` candles starting at or after this (rounded up to the interval), oldest first; page on with `nextFrom`. Without it, the last `limit` candles (before `to`), paged back with `previousTo` */
                from?: number;
                /** @description Candle width: 1, 5 or 15 minutes, 1 or 4 hours, or 1 day (buckets aligned to the unix epoch, UTC) */
                interval: "1m" | "5m" | "15m" | "1h" | "4h" | "1d";
                /** @description Candles a page holds at most */
                limit?: number;
                /** @description Unix seconds: only candles that start before this */
                to?: number;
            };
            header?: never;
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Oldest first; only intervals that hold a trade. Open and close follow chain order (block, then log index), as the trades list does */
                            candles: {
                                /** @description USDC per token, rounded down to 6 decimals */
                                close: string;
                                /** @description Close: USDC per token, full precision (18 decimals, rounded down) */
                                closeExact?: string;
                                /** @description USDC per token, rounded down to 6 decimals */
                                high: string;
                                /** @description High: USDC per token, full precision (18 decimals, rounded down) */
                                highExact?: string;
                                /** @description USDC per token, rounded down to 6 decimals */
                                low: string;
                                /** @description Low: USDC per token, full precision (18 decimals, rounded down) */
                                lowExact?: string;
                                /** @description USDC per token, rounded down to 6 decimals */
                                open: string;
                                /** @description Open: USDC per token, full precision (18 decimals, rounded down) */
                                openExact?: string;
                                /** @description The candle's start, unix seconds (UTC) */
                                time: number;
                                trades: number;
                                /** @description USDC traded */
                                volumeUsdc: string;
                                /** @description Decimal string of an integer in base units: USDC traded (6 decimals) */
                                volumeUsdcRaw?: string;
                            }[];
                            companyId: string;
                            interval: string;
                            /** @description The interval in seconds */
                            intervalSeconds?: number;
                            nextFrom?: number | null;
                            previousTo?: number | null;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1CompaniesBySlugTokenPositionByWallet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
                /** @description A wallet address, any case */
                wallet: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description USDC per whole token: costUsdc / quantity, 0 when nothing is held */
                            averageCostUsdc: string;
                            companyId: string;
                            /** @description USDC paid for quantity */
                            costUsdc: string;
                            /** @description Tokens bought and not yet sold (what the cost covers); tokens received by transfer have no cost */
                            quantity: string;
                            /** @description What the wallet's sales made against the average cost (negative for a loss) */
                            realizedPnlUsdc: string;
                            /** @description Checksummed */
                            wallet: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1CompaniesBySlugTokenQuote: {
        parameters: {
            query: {
                /** @description What goes in, in base units (an integer): USDC (6 decimals) for a buy, tokens (18 decimals) for a sale */
                amount: string;
                /** @description A buy pays USDC for tokens; a sale pays tokens for USDC */
                side: "buy" | "sell";
            };
            header?: never;
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description What goes in (USDC for a buy, tokens for a sale) */
                            amountIn: string;
                            /** @description amountIn in base units */
                            amountInRaw: string;
                            /** @description What comes out, after fees (tokens for a buy, USDC for a sale) */
                            amountOut: string;
                            /** @description amountOut in base units */
                            amountOutRaw: string;
                            averagePrice: string | null;
                            /** @description The block every figure was read at */
                            blockNumber: number;
                            companyId: string;
                            companySlug: string;
                            /** @description The venue's fee in basis points, included in amountOut: the launcher's curveFeeBps on the curve, the pool hook's 250 (2.5%) in the pool */
                            feeBps: number;
                            priceImpactPercent: number | null;
                            /** @enum {string} */
                            side: "buy" | "sell";
                            /** @description USDC per token before the trade (the launcher’s priceOf, 6 decimals) */
                            spotPrice: string;
                            /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                            tokenAddress: string;
                            /**
                             * @description The bonding curve, or the v4 pool once graduated
                             * @enum {string}
                             */
                            venue: "CURVE" | "POOL";
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1CompaniesBySlugTokenTrades: {
        parameters: {
            query?: {
                /** @description `pagination.nextCursor` of the page before (same filters and order): the trades after that page's last one in chain order, whatever was indexed since; `page` then counts from it */
                cursor?: string;
                /** @description Only trades in this block or later */
                fromBlock?: number;
                limit?: number;
                /** @description Chain order (block, then log index): `desc` newest first (the default), `asc` oldest first */
                order?: "desc" | "asc";
                page?: number;
                /** @description Only trades whose block time is at or after this instant */
                since?: string;
                /** @description Only trades in this block or earlier */
                toBlock?: number;
                /** @description Only this wallet's trades (an Ethereum address) */
                trader?: string;
                /** @description Only trades whose block time is before this instant */
                until?: string;
            };
            header?: never;
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            pagination: {
                                hasMore: boolean;
                                limit: number;
                                nextCursor?: string | null;
                                page: number;
                                total: number;
                            };
                            trades: {
                                /** @description Decimal string of an integer in base units: tokens bought or sold (18 decimals): the stream's `amount` */
                                amount?: string;
                                blockHash: string | null;
                                blockNumber: number;
                                /**
                                 * Format: date-time
                                 * @description The same as `time`: the name the event stream uses
                                 */
                                blockTime?: string;
                                companyId?: string;
                                companySlug?: string;
                                /** @description Its block is at or below the finalized block the indexer last saw; until then a reorg can still remove the trade (docs/indexer.md#reorgs) */
                                finalized: boolean;
                                logIndex: number;
                                /** @description USDC per token of this trade, rounded down to 6 decimals */
                                price: string;
                                /** @description The same as `price`: the name the event stream uses for it (docs/api/README.md "Names and units") */
                                priceDecimal?: string;
                                /** @description USDC per token of this trade, full precision (18 decimals, rounded down) */
                                priceExact?: string;
                                /** @description Decimal string of an integer in base units: USDC per whole token (6 decimals), rounded down: the stream's `price` */
                                priceRaw?: string;
                                /** @enum {string} */
                                side: "buy" | "sell";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC timestamp
                                 */
                                time: string;
                                /** @description The company token (checksummed) */
                                tokenAddress?: string;
                                /** @description Tokens bought or sold */
                                tokenAmount: string;
                                tokenSymbol?: string | null;
                                /** @description Checksummed address */
                                trader: string;
                                /** @description The same as txHash */
                                transactionHash: string;
                                /** @description Transaction hash (lower case) */
                                txHash: string;
                                /** @description USDC paid or received */
                                usdcAmount: string;
                                /** @description The same as `usdcAmount`: the name the event stream uses for it (docs/api/README.md "Names and units") */
                                usdcAmountDecimal?: string;
                                /** @description Decimal string of an integer in base units: USDC paid or received (6 decimals): the stream's `usdcAmount` */
                                usdcAmountRaw?: string;
                                /** @enum {string} */
                                venue: "CURVE" | "POOL";
                            }[];
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                        pagination: {
                            hasMore: boolean;
                            limit: number;
                            nextCursor?: string | null;
                            page: number;
                            total: number;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    putV1CompaniesBySlugTreasury: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry (docs/api/README.md "Idempotent writes"): per signer, the same request again within 24 hours gets the first answer with Idempotent-Replayed: true, without running again; another request under the same key gets 409 IDEMPOTENCY_KEY_REUSED, and one sent while the first still runs 409 IDEMPOTENCY_KEY_IN_USE. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        /** @description The new treasury, with its acceptance unless it is the signer's own wallet. Never the zero address, a platform contract, a company token, an agent wallet or another company's treasury. */
        requestBody: {
            content: {
                "application/json": {
                    acceptance?: {
                        /** @description The acceptance's last second (Unix time by the chain's clock): after the chain's time and at most 86400 s ahead of it */
                        deadline: number;
                        /** @description The treasury's EIP-712 signature of TreasuryAcceptance { companyId, treasury, chainId, deadline } (domain ai-economy, version 1, the chain id); a contract wallet's is checked with ERC-1271 */
                        signature: string;
                    };
                    /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                    treasuryAddress: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description true when this is the stored first answer to a request sent again with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Agents not terminated, in C-suite order */
                            agents: {
                                id: string;
                                name: string;
                                role: ("CFO" | "CTO" | "CMO" | "COO" | "CSO" | "CISO" | "CRO") | null;
                                /** @enum {string} */
                                status: "PENDING" | "DEPLOYING" | "ACTIVE" | "PAUSED" | "TERMINATED" | "FAILED";
                            }[];
                            /** @enum {string} */
                            autonomyLevel: "HUMAN_DIRECTED" | "STRATEGY_AUTONOMOUS" | "FULLY_AUTONOMOUS";
                            /** @description Whether the card is locked on-chain (markCompanyDeployed confirmed) */
                            cardLocked: boolean;
                            /** @description The access card bound to this company for ever */
                            cardTokenId: number;
                            /** @description The company's category; new values may be added, so treat an unknown one as its family's default */
                            category: ("DEFI_YIELD" | "SPOT_TRADING" | "DERIVATIVES" | "PRE_MARKET" | "AI_TOKENS" | "RWA" | "MULTICHAIN") | string;
                            ceoPrompt: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            /** @description Checksummed address */
                            creatorAddress: string;
                            custody: {
                                /** @description The Safe's only owner: accepts what the card's holder signs */
                                owner: string;
                                /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                                rolesModule: string;
                                /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                                safe: string;
                            } | null;
                            description: string | null;
                            engineConfig: {
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                briefGeneration?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                ceoSynthesis?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                jsonExtraction?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                roleExecution?: string;
                                /** @description A model id: one of openai/gpt-5, openai/gpt-5-mini, anthropic/claude-sonnet-4.5, anthropic/claude-haiku-4.5, google/gemini-2.5-pro, google/gemini-2.5-flash, deepseek/deepseek-chat, meta-llama/llama-4-maverick, or any other the configured provider serves (checked against its /models list when it has one) */
                                scrapeSummary?: string;
                            } | null;
                            /** @enum {string} */
                            enginePreset: "BUDGET" | "EFFICIENT" | "BALANCED" | "PREMIUM";
                            id: string;
                            /** @enum {string} */
                            league: "MACHINE" | "HUMAN";
                            logoUrl: string | null;
                            masterDirective: string | null;
                            name: string;
                            /** @description Gas the platform paid today for this company's transactions (deploy-suite, token launch, decision anchoring, claims), in gas units (costTodayWei: the native currency paid), and the daily budget; a request that would go past it answers 429 GAS_BUDGET_EXCEEDED until resetsAt */
                            platformGas: {
                                /** @description Decimal string of a whole-number amount */
                                budget: string;
                                /** @description Decimal string of a whole-number amount */
                                costTodayWei: string;
                                /**
                                 * Format: date
                                 * @description The UTC day counted
                                 */
                                day: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC timestamp
                                 */
                                resetsAt: string;
                                /** @description Decimal string of a whole-number amount */
                                usedToday: string;
                            };
                            platformScore: number;
                            referrerCompanyId: string | null;
                            slug: string;
                            /** @enum {string} */
                            status: "INCORPORATING" | "HIRING" | "PRIVATE" | "PUBLIC";
                            tokenAddress: string | null;
                            /** @enum {string} */
                            tokenStatus: "PRE_PUBLIC" | "BONDING" | "GRADUATED";
                            tokenSymbol: string | null;
                            toolkitConfig: {
                                /** @description Which tokens the agents may buy: platform minimums a company may tighten but not loosen (docs/api/agents.md "Buy rules") */
                                buyRules?: {
                                    /** @description Largest buy as a share of the USDC in the token's curve or pool, in basis points (platform maximum 200) */
                                    maxLiquidityBps?: number;
                                    /** @description Fewest distinct traders over 24 h, not counting the token's company's own wallets (platform minimum 10) */
                                    minDistinctTraders?: number;
                                    /** @description Youngest token (hours since launch, the chain's clock) an agent may buy (platform minimum 24) */
                                    minTokenAgeHours?: number;
                                    /** @description Hours without buying a token again after an agent sold it at a loss (platform minimum 24) */
                                    stopLossCooldownHours?: number;
                                };
                                disabledTools?: string[];
                                enabledTools?: string[];
                                /** @description Hard limits on the agents' trading tools, checked before anything is signed (docs/api/decisions.md) */
                                limits?: {
                                    /** @description Largest USDC the company's agents trade in one chain day (default 1000; 0 stops trading) */
                                    maxDailyNotionalUsdc?: string;
                                    /** @description Largest value of one token the company's agents may hold after a buy, in USDC (default 2500) */
                                    maxPositionUsdc?: string;
                                    /** @description Largest slippage a trade accepts from its quote, in basis points (default 300) */
                                    maxSlippageBps?: number;
                                    /** @description Largest share of the wallet's balance one buy or stake may use, in basis points (default 2500) */
                                    maxTradeBps?: number;
                                };
                            } | null;
                            treasuryAddress: string | null;
                            treasuryProvenAt: string | null;
                            /**
                             * @description PROVEN: the company proved it controls its treasury (the treasury signed its acceptance, or is the creator's wallet), which then counts toward the treasury score from treasuryProvenAt; UNPROVEN: set without proof (before proofs were asked for, or at creation), it scores 0 until the creator sets it again with PUT /api/companies/{id}/treasury; NONE: no treasury
                             * @enum {string}
                             */
                            treasuryStatus: "NONE" | "UNPROVEN" | "PROVEN";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            updatedAt: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description FORBIDDEN: the credentials are valid but not those of the creator or card holder */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_USE: the Idempotency-Key was used for another request, or a request with it still runs (retry after a second) */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1EpochsByEpochProofBySlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A finalized epoch */
                epoch: number;
                /** @description Company id (CUID) or slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Whether the platform recorded the claim as paid */
                            claimed: boolean;
                            companyId: string;
                            epoch: number;
                            leaf: {
                                /** @description Decimal string of a whole-number amount */
                                amount: string;
                                /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                                claimTo: string;
                                /** @description 0x followed by 64 hex characters */
                                companyKey: string;
                                /** @description The leaf's bit in the distributor's claimed bitmap */
                                index: number;
                                /** @description Decimal string of a whole-number amount */
                                score: string;
                            };
                            proof: string[];
                            /** @description 0x followed by 64 hex characters */
                            root: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    postV1EpochsClaim: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry (docs/api/README.md "Idempotent writes"): per signer, the same request again within 24 hours gets the first answer with Idempotent-Replayed: true, without running again; another request under the same key gets 409 IDEMPOTENCY_KEY_REUSED, and one sent while the first still runs 409 IDEMPOTENCY_KEY_IN_USE. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The company id */
                    companyId: string;
                    /** @description A finalized epoch */
                    epochNumber: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description true when this is the stored first answer to a request sent again with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            alreadyClaimed: boolean;
                            /** @description Decimal string of a whole-number amount */
                            amount: string;
                            epoch: number;
                            success: boolean;
                            txHash: string | null;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description FORBIDDEN: the credentials are valid but not those of the creator or card holder */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_USE: the Idempotency-Key was used for another request, or a request with it still runs (retry after a second) */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds; GAS_BUDGET_EXCEEDED when the company's daily gas budget would be passed */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1EpochsCurrent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Leaves of the finalized tree; 0 until finalized */
                            companyCount: number;
                            /** @description First second after the epoch (epoch seconds) */
                            endTime: number;
                            /** @description Seconds */
                            epochDuration: number;
                            /** @description The distributor's currentEpoch() */
                            epochNumber: number;
                            finalized: boolean;
                            /** @description Seconds from the latest block's time to endTime */
                            nextEpochIn: number;
                            /** @description Primary tokens (wei) the epoch is finalized with (EPOCH_REWARD_POOL) */
                            rewardPool: string;
                            /** @description First second of the epoch (epoch seconds) */
                            startTime: number;
                            /** @description Wei claimed; 0 until finalized */
                            totalClaimed: string;
                            /** @description Sum of company scores; 0 until finalized */
                            totalScore: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1Events: {
        parameters: {
            query?: {
                /** @description Backfill: answer the events kept (EVENT_BACKFILL_RETENTION_MS, default 2 days) after this id as JSON pages (application/json) instead of a stream; `0` for every event held. 410 EVENTS_EXPIRED when events after it were deleted by the retention */
                after?: string;
                /** @description Comma-separated company slugs or ids (at most 100); every one must name a company. All companies when absent */
                companies?: string;
                /** @description Backfill: `pagination.nextCursor` of the page before (with the same `after` and filters): the events after that page's last one */
                cursor?: string;
                /** @description Resume after this event id, for EventSource clients that cannot send Last-Event-ID */
                lastEventId?: string;
                /** @description Backfill: events a page holds at most (default 100) */
                limit?: number;
                /** @description Comma-separated event types: decision, trade, score, season. All types when absent */
                types?: string;
            };
            header?: {
                /** @description Resume after this event id: the retained events after it are sent first, then live ones */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A text/event-stream: first `retry: 3000`, `id: <resume id>` and `event: connected` with `data: {"type":"connected","timestamp"}`, then each platform event as `id: <id>`, `event: <type>`, `data: <JSON PlatformEvent>` and a blank line; a `: ping` comment after SSE_HEARTBEAT_MS (30 s) of silence. With `after`: a JSON page of the retained events after it, oldest first, in the v1 list envelope */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: (components["schemas"]["DecisionEvent"] | components["schemas"]["TradeEvent"] | components["schemas"]["ScoreEvent"] | components["schemas"]["SeasonEvent"])[];
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                        pagination: {
                            hasMore: boolean;
                            limit: number;
                            nextCursor?: string | null;
                            page: number;
                            total: number;
                        };
                    };
                    "text/event-stream": components["schemas"]["DecisionEvent"] | components["schemas"]["TradeEvent"] | components["schemas"]["ScoreEvent"] | components["schemas"]["SeasonEvent"];
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description EVENTS_EXPIRED: a stream resume from an id with later events of its filters older than the stream's window (EVENT_RETENTION_MS): the message and details point to the backfill and its `after`; or events after the given id were deleted (EVENT_BACKFILL_RETENTION_MS): they name the oldest event held and the id to continue after (docs/api/events.md "Resume") */
            410: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1Fortune: {
        parameters: {
            query?: {
                /** @description Only companies of this category */
                category?: "DEFI_YIELD" | "SPOT_TRADING" | "DERIVATIVES" | "PRE_MARKET" | "AI_TOKENS" | "RWA" | "MULTICHAIN";
                /** @description `pagination.nextCursor` of the page before, under the same filters: the companies after that page's last one (no repeat, no gap while companies are created); `page` then counts from it. 409 CONFLICT once a score snapshot changed the ranking */
                cursor?: string;
                /** @description Only companies of this league */
                league?: "MACHINE" | "HUMAN";
                limit?: number;
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            _count: {
                                /** @description Agents not terminated */
                                agents: number;
                            };
                            /** @description The company's category; new values may be added, so treat an unknown one as its family's default */
                            category: ("DEFI_YIELD" | "SPOT_TRADING" | "DERIVATIVES" | "PRE_MARKET" | "AI_TOKENS" | "RWA" | "MULTICHAIN") | string;
                            components: {
                                /** @description Completed SCHEDULED decision rounds in the 7 days before the snapshot (manual rounds do not count) */
                                activityRaw: number;
                                /** @description Completed scheduled decision rounds, linear against the best company, 0-100 */
                                activityScore: number;
                                /** @description Share of the 11 profile items filled */
                                completenessRaw: number;
                                /** @description Profile completeness, 100 * completenessRaw */
                                completenessScore: number;
                                /** @description (0.30 treasury + 0.20 trading + 0.20 volume + 0.20 activity + 0.10 completeness) * (1 + referralBoost) */
                                overall: number;
                                /** @description 0.01 per company referred, at most 0.25 */
                                referralBoost: number;
                                /** @description Sells minus buys of the company's agents over the day before the snapshot; may be negative, in USDC (up to 6 decimals) */
                                tradingRaw: number;
                                /** @description Trading PnL, log scale against the best company (0 for a loss), 0-100 */
                                tradingScore: number;
                                /** @description USDC balance of the treasury, in USDC (up to 6 decimals) */
                                treasuryRaw: number;
                                /** @description Treasury, log scale against the best company, 0-100 */
                                treasuryScore: number;
                                /** @description Counted volume of the company's token over the day before the snapshot: each trader's net position change, at most 25% of the total per trader, in USDC (up to 6 decimals) */
                                volumeRaw: number;
                                /** @description Counted token volume of the covered day, log scale against the best company, 0-100 */
                                volumeScore: number;
                            } | null;
                            covers: {
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC timestamp
                                 */
                                from: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC timestamp
                                 */
                                to: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            /** @description Checksummed address */
                            creatorAddress: string;
                            id: string;
                            /** @enum {string} */
                            league: "MACHINE" | "HUMAN";
                            logoUrl: string | null;
                            name: string;
                            /** @description The overall score of the latest snapshot */
                            platformScore: number;
                            /** @description Position in this (filtered) ranking */
                            rank: number;
                            slug: string;
                            snapshotDate: string | null;
                            /** @enum {string} */
                            tokenStatus: "PRE_PUBLIC" | "BONDING" | "GRADUATED";
                            tokenSymbol: string | null;
                        }[];
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                        pagination: {
                            hasMore: boolean;
                            limit: number;
                            nextCursor?: string | null;
                            page: number;
                            total: number;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description CONFLICT: the write collides with another or was done already */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1StakingPositionByWallet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A wallet address, any case */
                wallet: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Base APY of pool 0 in percent, 2 decimals */
                            baseApy: number;
                            /** @description baseApy times multiplier (the multiplier in effect), in percent */
                            effectiveApy: number;
                            /** @description stakedPrimary with the card's multiplier applied up to the tier's cap of stake, the rest at 1x (wei) */
                            effectiveStake: string;
                            /** @description Multiplier in effect: effectiveStake / stakedPrimary, rounded down to 2 decimals. A card's boost (5 Black, 3 Gold, 2 Silver) applies up to its tier's cap of stake (Black 1,000,000, Gold 250,000, Silver 100,000 primary tokens by default), so a larger stake has a multiplier between 1 and the tier's. Without a stake, the recorded card's multiplier; 1 without a card */
                            multiplier: number;
                            /** @description Unclaimed emission tokens, what harvest(0) would pay now (wei) */
                            pendingEmission: string;
                            /** @description Primary tokens staked in pool 0 (wei) */
                            stakedPrimary: string;
                            /**
                             * @description Tier of the access card the staking contract recorded as this wallet's boost; NONE without one
                             * @enum {string}
                             */
                            tier: "BLACK" | "GOLD" | "SILVER" | "NONE";
                            /** @description Ethereum address: 0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed */
                            wallet: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1StakingStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Base APY of pool 0 in percent, 2 decimals */
                            currentBaseApy: number;
                            /** @description Emission tokens minted per second across all pools (wei) */
                            emissionPerSecond: string;
                            /** @description Staking pools with allocation points above 0 */
                            poolCount: number;
                            /** @description Total supply of the emission token: all ever harvested */
                            totalEmissionDistributed: string;
                            /** @description Total effective stake of pool 0 (stake times multiplier, wei) */
                            totalStakedPrimary: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1Tokens: {
        parameters: {
            query?: {
                /** @description `pagination.nextCursor` of the page before: the items after that page's last one, whatever was launched since (no repeat, no gap); `page` then counts from it */
                cursor?: string;
                limit?: number;
                page?: number;
                status?: "BONDING" | "GRADUATED";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TokenListItem"][];
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                        pagination: {
                            hasMore: boolean;
                            limit: number;
                            nextCursor?: string | null;
                            page: number;
                            total: number;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1Trades: {
        parameters: {
            query?: {
                /** @description Only this company's token: its id or slug */
                company?: string;
                /** @description `pagination.nextCursor` of the page before (same filters and order): the trades after that page's last one in chain order, whatever was indexed since; `page` then counts from it */
                cursor?: string;
                /** @description Only trades in this block or later */
                fromBlock?: number;
                limit?: number;
                /** @description Chain order (block, then log index): `desc` newest first (the default), `asc` oldest first */
                order?: "desc" | "asc";
                page?: number;
                /** @description Only trades whose block time is at or after this instant */
                since?: string;
                /** @description Only trades in this block or earlier */
                toBlock?: number;
                /** @description Only this wallet's trades (an Ethereum address) */
                trader?: string;
                /** @description Only trades whose block time is before this instant */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Decimal string of an integer in base units: tokens bought or sold (18 decimals): the stream's `amount` */
                            amount?: string;
                            blockHash: string | null;
                            blockNumber: number;
                            /**
                             * Format: date-time
                             * @description The same as `time`: the name the event stream uses
                             */
                            blockTime?: string;
                            companyId?: string;
                            companySlug?: string;
                            /** @description Its block is at or below the finalized block the indexer last saw; until then a reorg can still remove the trade (docs/indexer.md#reorgs) */
                            finalized: boolean;
                            logIndex: number;
                            /** @description USDC per token of this trade, rounded down to 6 decimals */
                            price: string;
                            /** @description The same as `price`: the name the event stream uses for it (docs/api/README.md "Names and units") */
                            priceDecimal?: string;
                            /** @description USDC per token of this trade, full precision (18 decimals, rounded down) */
                            priceExact?: string;
                            /** @description Decimal string of an integer in base units: USDC per whole token (6 decimals), rounded down: the stream's `price` */
                            priceRaw?: string;
                            /** @enum {string} */
                            side: "buy" | "sell";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            time: string;
                            /** @description The company token (checksummed) */
                            tokenAddress?: string;
                            /** @description Tokens bought or sold */
                            tokenAmount: string;
                            tokenSymbol?: string | null;
                            /** @description Checksummed address */
                            trader: string;
                            /** @description The same as txHash */
                            transactionHash: string;
                            /** @description Transaction hash (lower case) */
                            txHash: string;
                            /** @description USDC paid or received */
                            usdcAmount: string;
                            /** @description The same as `usdcAmount`: the name the event stream uses for it (docs/api/README.md "Names and units") */
                            usdcAmountDecimal?: string;
                            /** @description Decimal string of an integer in base units: USDC paid or received (6 decimals): the stream's `usdcAmount` */
                            usdcAmountRaw?: string;
                            /** @enum {string} */
                            venue: "CURVE" | "POOL";
                        }[];
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                        pagination: {
                            hasMore: boolean;
                            limit: number;
                            nextCursor?: string | null;
                            page: number;
                            total: number;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1WalletsByWalletTrades: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                /** @description A wallet address, any case */
                wallet: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Newest first */
                            trades: {
                                blockNumber: number;
                                company: {
                                    id: string;
                                    name: string;
                                    slug: string;
                                    symbol: string | null;
                                };
                                /** @description The realised PnL of all the wallet's sales up to and including this trade (every trade counted, not only those answered) */
                                cumulativeRealizedPnlUsdc: string;
                                logIndex: number;
                                /** @description USDC per token of this trade */
                                price: string;
                                realizedPnlUsdc: string | null;
                                /** @enum {string} */
                                side: "buy" | "sell";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC timestamp
                                 */
                                time: string;
                                /** @description Tokens bought or sold */
                                tokenAmount: string;
                                /** @description Transaction hash */
                                txHash: string;
                                /** @description USDC paid or received */
                                usdcAmount: string;
                                /** @enum {string} */
                                venue: "CURVE" | "POOL";
                            }[];
                            /** @description Checksummed */
                            wallet: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1Webhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            companies: string[] | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            description: string;
                            disabledAt: string | null;
                            disabledReason: ("OWNER" | "FAILING") | null;
                            failingSince: string | null;
                            /** @description Webhook endpoint id */
                            id: string;
                            /** @enum {string} */
                            status: "ACTIVE" | "DISABLED";
                            types: ("decision" | "trade" | "score" | "season")[] | null;
                            url: string;
                        }[];
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                        pagination: {
                            hasMore: boolean;
                            limit: number;
                            nextCursor?: string | null;
                            page: number;
                            total: number;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    postV1Webhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only these companies' events, by slug or id (as the stream's `companies`; `season` events pass too); every company when absent */
                    companies?: string[];
                    description?: string;
                    /** @description Only these event types (as the stream's `types`); every type when absent */
                    types?: ("decision" | "trade" | "score" | "season")[];
                    /** @description Where deliveries are POSTed: https (http too outside production); a host that resolves to a public address only */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            companies: string[] | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            description: string;
                            disabledAt: string | null;
                            disabledReason: ("OWNER" | "FAILING") | null;
                            failingSince: string | null;
                            /** @description Webhook endpoint id */
                            id: string;
                            /** @description The signing secret (Standard Webhooks `whsec_<base64>`): shown once, here */
                            secret: string;
                            /** @enum {string} */
                            status: "ACTIVE" | "DISABLED";
                            types: ("decision" | "trade" | "score" | "season")[] | null;
                            url: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description CONFLICT: the write collides with another or was done already */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1WebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            companies: string[] | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            description: string;
                            disabledAt: string | null;
                            disabledReason: ("OWNER" | "FAILING") | null;
                            failingSince: string | null;
                            /** @description Webhook endpoint id */
                            id: string;
                            /** @enum {string} */
                            status: "ACTIVE" | "DISABLED";
                            types: ("decision" | "trade" | "score" | "season")[] | null;
                            url: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1WebhooksByIdAttempts: {
        parameters: {
            query?: {
                /** @description `pagination.nextCursor` of the page before: the older items after it */
                cursor?: string;
                /** @description Only this delivery's attempts */
                delivery?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Webhook endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description 1 for the delivery's first attempt */
                            attempt: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            attemptedAt: string;
                            /** @description Delivery id */
                            deliveryId: string;
                            error: string | null;
                            /** @description The platform event */
                            eventId: string;
                            /** @description Attempt id */
                            id: string;
                            latencyMs: number;
                            /** @description The first 1,024 bytes of the receiver's answer */
                            response: string;
                            statusCode: number | null;
                        }[];
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                        pagination: {
                            hasMore: boolean;
                            limit: number;
                            nextCursor?: string | null;
                            page: number;
                            total: number;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    getV1WebhooksByIdDeliveries: {
        parameters: {
            query?: {
                /** @description `pagination.nextCursor` of the page before: the older items after it */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Webhook endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            completedAt: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            /** @description The platform event delivered: the `webhook-id` header */
                            eventId: string;
                            /** @enum {string} */
                            eventType: "decision" | "trade" | "score" | "season";
                            /** @description Delivery id */
                            id: string;
                            nextAttemptAt: string | null;
                            /**
                             * @description PENDING (not delivered yet; retried), SUCCEEDED (a 2xx), FAILED (retries exhausted or endpoint disabled)
                             * @enum {string}
                             */
                            status: "PENDING" | "SUCCEEDED" | "FAILED";
                        }[];
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                        pagination: {
                            hasMore: boolean;
                            limit: number;
                            nextCursor?: string | null;
                            page: number;
                            total: number;
                        };
                    };
                };
            };
            /** @description Not Modified: If-None-Match named the ETag of the current answer (no body) */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    postV1WebhooksByIdDisable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            companies: string[] | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            description: string;
                            disabledAt: string | null;
                            disabledReason: ("OWNER" | "FAILING") | null;
                            failingSince: string | null;
                            /** @description Webhook endpoint id */
                            id: string;
                            /** @enum {string} */
                            status: "ACTIVE" | "DISABLED";
                            types: ("decision" | "trade" | "score" | "season")[] | null;
                            url: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    postV1WebhooksByIdEnable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            companies: string[] | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            description: string;
                            disabledAt: string | null;
                            disabledReason: ("OWNER" | "FAILING") | null;
                            failingSince: string | null;
                            /** @description Webhook endpoint id */
                            id: string;
                            /** @enum {string} */
                            status: "ACTIVE" | "DISABLED";
                            types: ("decision" | "trade" | "score" | "season")[] | null;
                            url: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
    postV1WebhooksByIdRotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            companies: string[] | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            createdAt: string;
                            description: string;
                            disabledAt: string | null;
                            disabledReason: ("OWNER" | "FAILING") | null;
                            failingSince: string | null;
                            /** @description Webhook endpoint id */
                            id: string;
                            /** @description The signing secret (Standard Webhooks `whsec_<base64>`): shown once, here */
                            secret: string;
                            /** @enum {string} */
                            status: "ACTIVE" | "DISABLED";
                            types: ("decision" | "trade" | "score" | "season")[] | null;
                            url: string;
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC timestamp
                             */
                            timestamp: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description UNAUTHORIZED: missing or invalid credentials */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description NOT_FOUND: no such record */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is larger than 64 KiB */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description BAD_REQUEST: the body is not JSON */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description INTERNAL_ERROR: the request id identifies it in the logs */
            500: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
            /** @description DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1Error"];
                };
            };
        };
    };
}
