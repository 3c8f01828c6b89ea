import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionCache, saveSession } from './auth/session';
import { sampleSession } from '../test-support';
import { ApiError } from './api';
import { uploadWithProgress } from './upload';

const expireSession = vi.hoisted(() => vi.fn());
vi.mock('./auth/auth-service', () => ({ expireSession }));

/** Just enough of XMLHttpRequest: records what was sent and lets the test answer. */
class FakeRequest {
  static last: FakeRequest | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;

  constructor() {
    FakeRequest.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }
}

const sent = () => {
  if (!FakeRequest.last) throw new Error('no request was sent');
  return FakeRequest.last;
};

describe('uploadWithProgress', () => {
  beforeEach(() => {
    FakeRequest.last = null;
    expireSession.mockClear();
    resetSessionCache();
    saveSession(sampleSession());
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    return () => vi.unstubAllGlobals();
  });
  afterEach(() => resetSessionCache());

  it('sends the form with the bearer token, reports progress and answers the parsed body', async () => {
    const progress: number[] = [];
    const form = new FormData();
    form.append('data', '{}');
    const result = uploadWithProgress<{ id: string }>('/api/requests/r1/documents/ine', form, {
      method: 'PUT',
      onProgress: (fraction) => progress.push(fraction),
    });
    const request = sent();
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/api/requests/r1/documents/ine');
    expect(request.headers.authorization).toBe('Bearer token');
    expect(request.body).toBe(form);
    request.upload.onprogress?.({ lengthComputable: true, loaded: 25, total: 100 });
    request.upload.onprogress?.({ lengthComputable: false, loaded: 50, total: 0 });
    request.answer(201, { id: 'r1' });
    await expect(result).resolves.toEqual({ id: 'r1' });
    expect(progress).toEqual([0.25, 1]);
  });

  it('turns a Problem JSON refusal into an ApiError with its field errors', async () => {
    const result = uploadWithProgress('/api/requests', new FormData());
    expect(sent().method).toBe('POST');
    sent().answer(400, {
      type: 'validation',
      title: 'Datos no válidos',
      status: 400,
      detail: 'Revisa los campos.',
      errors: [{ field: 'clabe', message: 'CLABE no válida.' }],
    });
    const error = await result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe('Revisa los campos.');
    expect((error as ApiError).fieldErrors).toEqual([{ field: 'clabe', message: 'CLABE no válida.' }]);
    expect(expireSession).not.toHaveBeenCalled();
  });

  it('ends the session on a 401 and reports a network failure in Spanish', async () => {
    const refused = uploadWithProgress('/api/requests', new FormData());
    sent().answer(401, undefined);
    await expect(refused).rejects.toMatchObject({ status: 401 });
    expect(expireSession).toHaveBeenCalledWith('Tu sesión ya no es válida. Inicia sesión de nuevo.');

    const offline = uploadWithProgress('/api/requests', new FormData());
    sent().onerror?.();
    await expect(offline).rejects.toMatchObject({ status: 0, message: 'No se pudo conectar con el portal. Revisa tu conexión.' });
  });
});
