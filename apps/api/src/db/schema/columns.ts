import { customType, numeric, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers every area's tables use. */

/** A moment in time, kept with its time zone. */
export const instant = (name: string) => timestamp(name, { withTimezone: true });

export const createdAt = () => instant('created_at').notNull().defaultNow();

export const updatedAt = () => instant('updated_at').notNull().defaultNow();

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
