import { customType, timestamp } from 'drizzle-orm/pg-core';

// Column helpers every table file shares.
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
export const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => tstz('created_at').notNull().defaultNow();
