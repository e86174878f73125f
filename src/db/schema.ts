// The database schema, one file per area under ./schema/ (drizzle-kit reads them through this file).
export * from './schema/accounts';
export * from './schema/sites';
export * from './schema/payments';
export * from './schema/oauth';
export * from './schema/webhooks';
export * from './schema/search';
export * from './schema/stats';
export * from './schema/domains';
export * from './schema/health';
export * from './schema/mcp';
export * from './schema/listing-changes';
