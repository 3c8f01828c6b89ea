import type { Permission, PermissionPath } from '@portal/contract';
import { readSession, type Session } from './shapes';

export type { Session };

/** The stored session (seed section 9): user, token and permissions under one localStorage key. */
export const SESSION_KEY = 'portfolio-admin';

type Listener = () => void;
const listeners = new Set<Listener>();
let current: Session | null | undefined;

const nowSeconds = () => Date.now() / 1000;

/** A corrupt, expired or unreadable stored session counts as signed out, and is removed. */
export function readStoredSession(): Session | null {
  try {
    const raw = window.localStorage.getItem(SESSION_KEY);
    if (raw == null) return null;
    const parsed = readSession(JSON.parse(raw));
    if (parsed && parsed.token.expiresAt > nowSeconds()) return parsed;
  } catch {
    // Unreadable storage (blocked, or invalid JSON): signed out.
  }
  try {
    window.localStorage.removeItem(SESSION_KEY);
  } catch {
    // Storage unavailable: nothing to remove.
  }
  return null;
}

export function getSession(): Session | null {
  current ??= readStoredSession();
  return current;
}

function publish(next: Session | null): void {
  current = next;
  for (const listener of listeners) listener();
}

export function saveSession(session: Session): void {
  window.localStorage.setItem(SESSION_KEY, JSON.stringify(session));
  publish(session);
}

export function clearSession(): void {
  try {
    window.localStorage.removeItem(SESSION_KEY);
  } finally {
    publish(null);
  }
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Another tab signed in or out: follow it. */
export function followOtherTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_KEY || event.key === null) publish(readStoredSession());
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

export function hasPermission(session: Session | null, path: PermissionPath): boolean {
  return !!session?.permissions.some((permission: Permission) => permission.path === path);
}

/** For tests: forget the in-memory copy so the next read goes to storage. */
export function resetSessionCache(): void {
  current = undefined;
}
