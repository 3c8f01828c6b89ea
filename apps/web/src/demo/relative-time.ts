/** Relative time with the template's units (seed section 9): sec, min, h, d, mon, y. */
const UNITS = [
  { unit: 'y', seconds: 365 * 24 * 3600 },
  { unit: 'mon', seconds: 30 * 24 * 3600 },
  { unit: 'd', seconds: 24 * 3600 },
  { unit: 'h', seconds: 3600 },
  { unit: 'min', seconds: 60 },
  { unit: 'sec', seconds: 1 },
] as const;

export function relativeTime(timestamp: number, now: number = Date.now()): string {
  const elapsed = Math.max(0, Math.floor((now - timestamp) / 1000));
  const match = UNITS.find(({ seconds }) => elapsed >= seconds) ?? { unit: 'sec', seconds: 1 };
  return `${Math.floor(elapsed / match.seconds)} ${match.unit}`;
}
