import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LAYOUT_KEY, useLayoutPrefs } from './layout-prefs';

describe('layout preferences', () => {
  it('defaults to the side bar, and remembers a switch to the top bar and the compact side bar', () => {
    const { result } = renderHook(() => useLayoutPrefs());
    expect(result.current[0]).toEqual({ layout: 'side', compact: false });
    act(() => result.current[1]({ layout: 'top' }));
    act(() => result.current[1]({ compact: true }));
    expect(result.current[0]).toEqual({ layout: 'top', compact: true });
    expect(JSON.parse(window.localStorage.getItem(LAYOUT_KEY)!)).toEqual({ layout: 'top', compact: true });
    // A new page (a reload) reads the same choice.
    expect(renderHook(() => useLayoutPrefs()).result.current[0]).toEqual({ layout: 'top', compact: true });
  });

  it('falls back to the defaults for an unreadable stored value', () => {
    window.localStorage.setItem(LAYOUT_KEY, '{roto');
    expect(renderHook(() => useLayoutPrefs()).result.current[0]).toEqual({ layout: 'side', compact: false });
  });
});
