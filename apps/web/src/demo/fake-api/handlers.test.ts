import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECOMMERCE_USER } from './data';
import { createHandlers } from './handlers';

const now = Date.UTC(2026, 10, 23);
const server = setupServer(...createHandlers({ now: () => now, loginDelayMs: 0 }));
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => server.close());

const url = (path: string) => new URL(path, window.location.origin).toString();
const get = async (path: string, init?: RequestInit) => {
  const response = await fetch(url(path), init);
  return { status: response.status, body: (await response.json()) as unknown };
};
const post = (path: string, body: unknown) =>
  get(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('fake API (seed section 7)', () => {
  it('answers the product, category, rating and brand lists with the section 9 constants', async () => {
    const products = (await get('/api/ecommerce/get-product-list')).body as { totalUnit: number; rating: number; brand: string }[];
    expect(products.every((product) => product.totalUnit === 100 && product.rating >= 1 && product.rating <= 5)).toBe(true);
    expect(((await get('/api/ecommerce/get-category-list')).body as { title: string }[]).map((item) => item.title)).toEqual([
      'audio',
      'fashion',
      'cellphone',
      'accessories',
    ]);
    expect(((await get('/api/ecommerce/get-brand-list')).body as { title: string }[]).map((item) => item.title)).toEqual([
      'Microlab',
      'Sony',
      'Beats',
      'Iphone',
      'Comlion',
      'Kurren',
    ]);
    expect(((await get('/api/ecommerce/get-rating-list')).body as { rate: number }[]).map((item) => item.rate)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps a cart through add, update and delete, and merges the product fields into the cart list', async () => {
    const uid = ECOMMERCE_USER.id;
    expect((await get('/api/ecommerce/get-cart-list')).body).toEqual([]);
    await post('/api/ecommerce/add-to-cart', { uid, productId: 'p1' });
    await post('/api/ecommerce/add-to-cart', { uid, productId: 'p2' });
    const added = await post('/api/ecommerce/add-to-cart', { uid, productId: 'p1' });
    expect(added.body).toEqual({
      uid,
      list: [
        { productId: 'p1', amount: 2 },
        { productId: 'p2', amount: 1 },
      ],
    });
    await post('/api/ecommerce/update-cart-amount', { uid, productId: 'p2', amount: 5 });
    await post('/api/ecommerce/delete-from-cart', { uid, productId: 'p1' });
    const cart = (await get(`/api/ecommerce/get-cart-list?data=${uid}`)).body as { id: string; amount: number; title: string }[];
    expect(cart).toEqual([expect.objectContaining({ id: 'p2', amount: 5, title: expect.any(String) })]);
  });

  it('deletes one notification, leaves the list on add and empties it on delete-all', async () => {
    const all = (await get('/api/notification')).body as { id: string }[];
    const remaining = (await post('/api/notification/delete', { id: all[0]!.id })).body as { id: string }[];
    expect(remaining.map((item) => item.id)).toEqual(all.slice(1).map((item) => item.id));
    expect((await post('/api/notification/add', {})).body).toEqual(remaining);
    expect((await post('/api/notification/delete-all', {})).body).toEqual([]);
  });

  it('reorders and moves scrum cards and answers the updated board', async () => {
    const reordered = (await post('/api/scrum-board/reorder-card', { boardId: 'b1', listId: 'backlog', startIndex: 0, endIndex: 2 }))
      .body as {
      lists: { id: string; cardList: { id: string }[] }[];
    };
    expect(reordered.lists[0]!.cardList.map((card) => card.id)).toEqual(['c2', 'c3', 'c1']);
    const moved = (
      await post('/api/scrum-board/move-card', {
        boardId: 'b1',
        sourcelistId: 'backlog',
        destinationlistId: 'done',
        source: 0,
        destination: 1,
      })
    ).body as typeof reordered;
    expect(moved.lists.map((list) => list.cardList.map((card) => card.id))).toEqual([['c3', 'c1'], ['c4'], ['c5', 'c2']]);
  });

  it('answers the demo messages of section 8 from the fake auth endpoints', async () => {
    expect(await post('/api/auth/login', { email: 'demo@plantilla.mx', password: 'mala' })).toEqual({
      status: 400,
      body: { message: 'Invalid email or password' },
    });
    expect(await post('/api/auth/register', { email: 'demo@plantilla.mx', username: 'x', password: 'y' })).toEqual({
      status: 400,
      body: { message: 'User already exists!' },
    });
    expect(await get('/api/auth/profile', { headers: { authorization: 'Bearer nada' } })).toEqual({
      status: 401,
      body: { message: 'Invalid Authorization token' },
    });
    expect(await post('/api/auth/register', {})).toEqual({ status: 500, body: { message: 'Internal server error' } });

    const login = (await post('/api/auth/login', { email: 'demo@plantilla.mx', password: 'demo' })).body as { accessToken: string };
    const token = JSON.parse(atob(login.accessToken)) as { exp: number };
    expect(token.exp - now / 1000).toBe(7 * 24 * 3600);
    const profile = await get('/api/auth/profile', { headers: { authorization: `Bearer ${login.accessToken}` } });
    expect(profile).toEqual({ status: 200, body: { user: expect.objectContaining({ email: 'demo@plantilla.mx' }) } });
    expect(JSON.stringify(profile.body)).not.toContain('password');
  });

  it('claims no path of the product API', () => {
    const paths = createHandlers().map((handler) => String((handler.info as { path: unknown }).path));
    expect(paths.filter((path) => /^\/api\/(users|profiles|agreements|auth\/config|health|outbox)/.test(path))).toEqual([]);
  });
});
