import type { UserManager } from 'oidc-client-ts';
import { loadAuthConfig } from '../auth-config';
import { clearSession, getSession, saveSession, type Session } from './session';
import { SignInError, buildSession, classifyPopupError } from './sign-in';

let ready: UserManager | null = null;
let pending: Promise<UserManager> | null = null;

const NOTICE_KEY = 'portfolio-admin:notice';

/** A message for the sign-in page after an automatic sign-out (expired session, refused token). */
export function leaveNotice(message: string): void {
  window.sessionStorage.setItem(NOTICE_KEY, message);
}

export function takeNotice(): string | null {
  const message = window.sessionStorage.getItem(NOTICE_KEY);
  window.sessionStorage.removeItem(NOTICE_KEY);
  return message;
}

export const EXPIRED_MESSAGE = 'Tu sesión expiró. Inicia sesión de nuevo.';

/** The UserManager, created once from the API's auth configuration, with silent renew wired to the session. */
export function prepareAuth(): Promise<UserManager> {
  // oidc-client-ts (17 kB gzip) is loaded here, not with the app: a signed-in screen needs it only for the renewal
  // a minute before the token lapses, and for signing out (decision 0027).
  pending ??= Promise.all([loadAuthConfig(), import('./oidc')])
    .then(([config, { createUserManager }]) => {
      const manager = createUserManager(config);
      manager.events.addUserLoaded((user) => {
        const session = getSession();
        if (!session) return;
        saveSession({
          ...session,
          token: { accessToken: user.access_token, idToken: user.id_token ?? null, expiresAt: user.expires_at ?? session.token.expiresAt },
        });
      });
      manager.events.addSilentRenewError(() => void renewWhileValid(manager));
      ready = manager;
      return manager;
    })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}

/** Seconds a token must still have for another renewal try to be worth it. */
const RETRY_MARGIN_SECONDS = 10;
const RETRY_DELAY_MS = 5_000;
let retrying: Promise<void> | null = null;

type Renewer = Pick<UserManager, 'getUser' | 'signinSilent'>;

/**
 * A failed silent renewal (the provider slow or restarting, the page busy) is tried again every 5 s while the current
 * token is still good; the clerk is signed out only when it is about to lapse. One retry loop runs at a time.
 */
export function renewWhileValid(manager: Renewer, wait = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))): Promise<void> {
  retrying ??= (async () => {
    try {
      for (;;) {
        const user = await manager.getUser().catch(() => null);
        if (!user || (user.expires_in ?? 0) <= RETRY_MARGIN_SECONDS) {
          expireSession();
          return;
        }
        await wait(RETRY_DELAY_MS);
        try {
          await manager.signinSilent();
          return;
        } catch {
          // Tried again while the token lasts.
        }
      }
    } finally {
      retrying = null;
    }
  })();
  return retrying;
}

/** The manager if it is loaded: `signinPopup` must run inside the click, before any await, or the popup is blocked. */
export function readyUserManager(): UserManager | null {
  return ready;
}

const FORCE_LOGIN_KEY = 'portfolio-admin:force-login';

/** Runs the four sign-in checks; on success the session is stored, on failure nothing is. */
export async function signIn(manager: UserManager): Promise<Session> {
  // After a refused user or a logout the provider may still know the last person: ask for the password again.
  const forceLogin = window.localStorage.getItem(FORCE_LOGIN_KEY) !== null;
  const popup = manager.signinPopup(forceLogin ? { prompt: 'login' } : {});
  let user;
  try {
    user = await popup;
  } catch (error) {
    throw new SignInError(classifyPopupError(error));
  }
  try {
    const session = await buildSession(user);
    saveSession(session);
    window.localStorage.removeItem(FORCE_LOGIN_KEY);
    return session;
  } catch (error) {
    // Not a portal user, or no permissions: signed out here, and the next try starts with the password.
    window.localStorage.setItem(FORCE_LOGIN_KEY, '1');
    await manager.removeUser();
    clearSession();
    throw error;
  }
}

/**
 * Logout: clears the stored session and ends the provider session (which returns to the sign-in page). The portal
 * forgets the user before the provider has ended its session, and that navigation can be cut short (closed tab, lost
 * network): the next sign-in in any tab of this browser asks for the password whatever the provider still holds, so
 * nobody walks into the last person's account (the flag is in localStorage, which every tab shares; issue 44).
 */
export async function signOut(): Promise<void> {
  window.localStorage.setItem(FORCE_LOGIN_KEY, '1');
  clearSession();
  let manager: UserManager;
  try {
    manager = await prepareAuth();
  } catch {
    window.location.assign('/session/signin');
    return;
  }
  const user = await manager.getUser();
  await manager.removeUser();
  try {
    await manager.signoutRedirect(user?.id_token ? { id_token_hint: user.id_token } : {});
  } catch {
    window.location.assign('/session/signin');
  }
}

/** The token could not be renewed (or the API refused it): signed out, with a message. */
export function expireSession(message = EXPIRED_MESSAGE): void {
  if (!getSession()) return;
  leaveNotice(message);
  clearSession();
  void ready?.removeUser();
}
