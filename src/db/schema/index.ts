// All tables, one file per area; drizzle-kit reads this module to generate migrations.
export * from './agents.ts';
export * from './auth.ts';
export * from './chain.ts';
export * from './companies.ts';
export * from './decisions.ts';
export * from './epochs.ts';
export * from './events.ts';
export * from './scores.ts';
export * from './tokens.ts';
export * from './treasuries.ts';
export * from './wallets.ts';
export * from './webhooks.ts';
