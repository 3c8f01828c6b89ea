import { customType, numeric, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers every area's tables use. */

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
