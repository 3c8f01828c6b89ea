const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** An ILIKE pattern that finds `text` anywhere, its own %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** An ILIKE pattern for values that start with `text` (an index range), its own %, _ and \ taken literally. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}
