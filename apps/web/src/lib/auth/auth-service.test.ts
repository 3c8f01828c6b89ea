import type { User } from 'oidc-client-ts';
import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPIRED_MESSAGE, renewWhileValid, takeNotice } from './auth-service';
import { getSession, resetSessionCache, saveSession } from './session';
import { sampleSession } from '../../test-support';

/** A user whose token has `secondsLeft` to live, as oidc-client-ts reports it. */
const userWith = (secondsLeft: number) => ({ expires_in: secondsLeft }) as User;

describe('a failed silent renewal', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession());
    takeNotice();
  });

  it('is tried again while the token is still good, and the session stays', async () => {
    const signinSilent = vi.fn().mockRejectedValueOnce(new Error('timeout')).mockResolvedValueOnce(userWith(900));
    const waits: number[] = [];
    await renewWhileValid({ getUser: async () => userWith(50), signinSilent }, async (ms) => void waits.push(ms));
    expect(signinSilent).toHaveBeenCalledTimes(2);
    expect(waits).toEqual([5_000, 5_000]);
    expect(getSession()).not.toBeNull();
    expect(takeNotice()).toBeNull();
  });

  it('signs out with the expiry notice once the token is about to lapse', async () => {
    let left = 22;
    const signinSilent = vi.fn().mockRejectedValue(new Error('login_required'));
    await renewWhileValid({ getUser: async () => userWith(left), signinSilent }, async () => void (left -= 5));
    // 22 s left: try after 5 s; 17: again; 12: again; 7 s is under the 10 s margin: signed out, no fourth try.
    expect(signinSilent).toHaveBeenCalledTimes(3);
    expect(getSession()).toBeNull();
    expect(takeNotice()).toBe(EXPIRED_MESSAGE);
  });

  it('runs one retry loop at a time however many errors arrive', async () => {
    let release = () => {};
    const signinSilent = vi.fn(() => new Promise<User>((done) => (release = () => done(userWith(900)))));
    const manager = { getUser: async () => userWith(60), signinSilent };
    const first = renewWhileValid(manager, async () => undefined);
    const second = renewWhileValid(manager, async () => undefined);
    expect(second).toBe(first);
    await waitFor(() => expect(signinSilent).toHaveBeenCalledTimes(1));
    release();
    await first;
    expect(signinSilent).toHaveBeenCalledTimes(1);
  });
});
