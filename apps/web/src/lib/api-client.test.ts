import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { profileRoutes, requestRoutes, userRoutes } from '@portal/contract';
import { resetSessionCache, saveSession } from './auth/session';
import { sampleSession } from '../test-support';
import { ApiError } from './api';
import { call, callList, routeUrl } from './api-client';

const expireSession = vi.hoisted(() => vi.fn());
vi.mock('./auth/auth-service', () => ({ expireSession }));

const USER_ID = '3f1c2b7e-8d4a-4c1e-9b2a-6f0e5d4c3b2a';

/** Answers every fetch with `response` and records what was asked. */
function answerWith(response: () => Response) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => response());
  vi.stubGlobal('fetch', fetch);
  const request = (index = 0) => {
    const [url, init] = fetch.mock.calls[index]!;
    return { url, method: init.method, headers: new Headers(init.headers), body: init.body };
  };
  return request;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the typed API client', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession());
    expireSession.mockReset();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('fills the route path from params, sends the body as JSON with the token, and answers the parsed JSON', async () => {
    const request = answerWith(() => json(200, { id: USER_ID, active: false }));
    const answer = await call(userRoutes.setStatus, { params: { id: USER_ID }, body: { active: false, version: 3 } });
    expect(answer).toEqual({ id: USER_ID, active: false });
    const sent = request();
    expect(sent.url).toBe(`/api/users/${USER_ID}/status`);
    expect(sent.method).toBe('POST');
    expect(JSON.parse(sent.body as string)).toEqual({ active: false, version: 3 });
    expect(sent.headers.get('authorization')).toBe('Bearer token');
    expect(sent.headers.get('content-type')).toBe('application/json');
  });

  it('encodes path parameters and sends a list route the list state from the URL as it is', async () => {
    expect(routeUrl(requestRoutes.getDocument, { id: 'a/b c', kind: 'ine' })).toBe('/api/requests/a%2Fb%20c/documents/ine');
    const request = answerWith(() => json(200, { items: [], total: 0 }));
    await callList(userRoutes.list, 'page=2&pageSize=25&sort=-email&status=active');
    expect(request().url).toBe('/api/users?page=2&pageSize=25&sort=-email&status=active');
    expect(request().method).toBe('GET');
  });

  it('answers nothing for a 204 route, and a Blob for a file route asked with accept */*', async () => {
    let request = answerWith(() => new Response(null, { status: 204 }));
    expect(await call(profileRoutes.remove, { params: { id: USER_ID } })).toBeUndefined();
    expect(request().method).toBe('DELETE');

    request = answerWith(() => new Response('%PDF-1.7', { status: 200, headers: { 'content-type': 'application/pdf' } }));
    const file = await call(requestRoutes.getDocument, { params: { id: USER_ID, kind: 'ine' } });
    // (Node's fetch answers its own Blob class, not jsdom's: check what it holds.)
    expect(file.type).toBe('application/pdf');
    expect(await file.text()).toBe('%PDF-1.7');
    expect(request().headers.get('accept')).toBe('*/*');
  });

  it('turns a refusal into an ApiError with its field errors, and a 401 into a sign-out', async () => {
    const problem = {
      type: 'about:blank',
      title: 'Datos inválidos',
      status: 400,
      detail: 'Revisa los campos marcados.',
      errors: [{ field: 'email', message: 'Ya existe.' }],
    };
    answerWith(() => json(400, problem));
    const refused = await call(userRoutes.create, {
      body: { email: 'a@b.mx', name: 'Ana', profileId: USER_ID, companyId: USER_ID, active: true },
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).fieldErrors).toEqual([{ field: 'email', message: 'Ya existe.' }]);
    expect(expireSession).not.toHaveBeenCalled();

    answerWith(() => json(401, { type: 'about:blank', title: 'No autorizado', status: 401 }));
    await expect(call(profileRoutes.list)).rejects.toBeInstanceOf(ApiError);
    expect(expireSession).toHaveBeenCalledOnce();
  });
});
