import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const now = Date.UTC(2026, 10, 23, 12, 0, 0);
const ago = (seconds: number) => now - seconds * 1000;

describe('relativeTime', () => {
  it.each([
    [0, '0 sec'],
    [59, '59 sec'],
    [60, '1 min'],
    [3599, '59 min'],
    [3600, '1 h'],
    [86_400 * 2 + 5, '2 d'],
    [86_400 * 45, '1 mon'],
    [86_400 * 365 * 3, '3 y'],
  ])('%i seconds ago reads %s', (seconds, text) => {
    expect(relativeTime(ago(seconds), now)).toBe(text);
  });

  it('never reads a future time as negative', () => {
    expect(relativeTime(now + 5000, now)).toBe('0 sec');
  });
});
