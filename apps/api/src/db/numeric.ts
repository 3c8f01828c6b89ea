/** numeric(…, 4) comes back as "36.0000": shown and reused as typed, "36" (exact: only zeros are dropped). */
export function trimNumeric(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}
