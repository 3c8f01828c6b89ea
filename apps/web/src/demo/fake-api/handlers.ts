import { delay, http, HttpResponse, type JsonBodyType } from 'msw';
import { DEMO_ERRORS, DEMO_TOKEN_LIFETIME_SECONDS, MOCK_LOGIN_DELAY_MS } from '../constants';
import {
  BOARDS,
  BRAND_LIST,
  CATEGORY_LIST,
  CHAT,
  EVENTS,
  INBOX,
  INVOICES,
  LABELS,
  LIST_ITEMS,
  NOTIFICATIONS,
  PEOPLE,
  PRODUCTS,
  RATING_LIST,
  TODOS,
} from './data';
import {
  addNotification,
  addToCart,
  deleteAllNotifications,
  deleteFromCart,
  deleteNotification,
  moveCard,
  reorderCard,
  updateCartAmount,
  type Cart,
  type ScrumBoard,
} from './state';

/** The demo accounts of the fake auth endpoints (never the product's users). */
const DEMO_ACCOUNTS = [{ id: 'demo-1', email: 'demo@plantilla.mx', password: 'demo', name: 'Usuario Demo', role: 'SA' }];

const fail = (error: (typeof DEMO_ERRORS)[keyof typeof DEMO_ERRORS]) =>
  HttpResponse.json({ message: error.message }, { status: error.status });

/** A readable fake token: the account id and its end, 7 days after it was issued (seed section 9). */
const issueToken = (id: string, now: number) =>
  btoa(JSON.stringify({ sub: id, exp: Math.floor(now / 1000) + DEMO_TOKEN_LIFETIME_SECONDS }));

function readToken(header: string | null, now: number): string | null {
  const token = header?.match(/^Bearer (.+)$/)?.[1];
  if (!token) return null;
  try {
    const payload = JSON.parse(atob(token)) as { sub?: string; exp?: number };
    return payload.sub && payload.exp && payload.exp * 1000 > now ? payload.sub : null;
  } catch {
    return null;
  }
}

const publicUser = ({ password: _password, ...user }: (typeof DEMO_ACCOUNTS)[number]) => user;

/**
 * The fake API of seed section 7: the template's endpoints only, each on its own in-memory state (a fresh copy per
 * call, so tests do not share it). Every other request is left to the real network by the worker's `bypass`.
 */
export function createHandlers({ now = () => Date.now(), loginDelayMs = MOCK_LOGIN_DELAY_MS } = {}) {
  const accounts = DEMO_ACCOUNTS.map((account) => ({ ...account }));
  let notifications = [...NOTIFICATIONS];
  let boards: ScrumBoard[] = structuredClone(BOARDS);
  const carts = new Map<string, Cart>();
  const invoices = structuredClone(INVOICES);
  const events = [...EVENTS];
  const messages = [...CHAT.messages];
  const todos = TODOS.map((todo) => ({ ...todo }));

  const cartOf = (uid: string) => carts.get(uid) ?? { uid, list: [] };
  const saveCart = (cart: Cart) => {
    carts.set(cart.uid, cart);
    return HttpResponse.json(cart);
  };
  const withBoard = (boardId: string, change: (board: ScrumBoard) => ScrumBoard) => {
    const board = boards.find((candidate) => candidate.id === boardId);
    if (!board) return fail(DEMO_ERRORS.serverError);
    const next = change(board);
    boards = boards.map((candidate) => (candidate.id === boardId ? next : candidate));
    return HttpResponse.json(next);
  };
  const body = async <T extends JsonBodyType>(request: Request) => (await request.json().catch(() => ({}))) as T;
  const list = (value: JsonBodyType) => () => HttpResponse.json(value);

  return [
    // Notifications.
    http.get('/api/notification', () => HttpResponse.json(notifications)),
    http.post('/api/notification/add', () => HttpResponse.json((notifications = addNotification(notifications)))),
    http.post('/api/notification/delete', async ({ request }) => {
      const { id } = await body<{ id: string }>(request);
      return HttpResponse.json((notifications = deleteNotification(notifications, id)));
    }),
    http.post('/api/notification/delete-all', () => HttpResponse.json((notifications = deleteAllNotifications()))),

    // Scrum board: the two state rules, then the board data.
    http.post('/api/scrum-board/reorder-card', async ({ request }) => {
      const { boardId, listId, startIndex, endIndex } = await body<{
        boardId: string;
        listId: string;
        startIndex: number;
        endIndex: number;
      }>(request);
      return withBoard(boardId, (board) => reorderCard(board, listId, startIndex, endIndex));
    }),
    http.post('/api/scrum-board/move-card', async ({ request }) => {
      const { boardId, sourcelistId, destinationlistId, source, destination } = await body<{
        boardId: string;
        sourcelistId: string;
        destinationlistId: string;
        source: number;
        destination: number;
      }>(request);
      return withBoard(boardId, (board) => moveCard(board, sourcelistId, destinationlistId, source, destination));
    }),
    http.post('/api/scrum-board/add-card', async ({ request }) => {
      const { boardId, listId, title } = await body<{ boardId: string; listId: string; title: string }>(request);
      const card = { id: `c${Date.now().toString(36)}`, title, labels: [], members: [] };
      return withBoard(boardId, (board) => ({
        ...board,
        lists: board.lists.map((item) => (item.id === listId ? { ...item, cardList: [...item.cardList, card] } : item)),
      }));
    }),
    http.post('/api/scrum-board/add-column', async ({ request }) => {
      const { boardId, title } = await body<{ boardId: string; title: string }>(request);
      return withBoard(boardId, (board) => ({
        ...board,
        lists: [...board.lists, { id: `col${board.lists.length + 1}`, title, cardList: [] }],
      }));
    }),
    http.get('/api/scrum-board/all-board', () =>
      HttpResponse.json(boards.map(({ id, title, lists }) => ({ id, title, cards: lists.flatMap((item) => item.cardList).length }))),
    ),
    http.get('/api/scrum-board/members', list(PEOPLE.map(({ id, name }) => ({ id, name })))),
    http.get('/api/scrum-board/labels', list([...LABELS])),
    http.get('/api/scrum-board/:id', ({ params }) => {
      const board = boards.find((candidate) => candidate.id === params.id);
      return board ? HttpResponse.json(board) : fail(DEMO_ERRORS.serverError);
    }),

    // E-commerce.
    http.get('/api/ecommerce/get-product-list', list(PRODUCTS)),
    http.get('/api/ecommerce/get-category-list', list(CATEGORY_LIST)),
    http.get('/api/ecommerce/get-rating-list', list(RATING_LIST)),
    http.get('/api/ecommerce/get-brand-list', list(BRAND_LIST)),
    http.get('/api/ecommerce/get-cart-list', ({ request }) => {
      const uid = new URL(request.url).searchParams.get('data');
      if (!uid) return HttpResponse.json([]);
      return HttpResponse.json(
        cartOf(uid).list.flatMap((entry) => {
          const product = PRODUCTS.find((candidate) => candidate.id === entry.productId);
          return product ? [{ ...product, amount: entry.amount }] : [];
        }),
      );
    }),
    http.post('/api/ecommerce/add-to-cart', async ({ request }) => {
      const { uid, productId } = await body<{ uid: string; productId: string }>(request);
      return saveCart(addToCart(cartOf(uid), productId));
    }),
    http.post('/api/ecommerce/delete-from-cart', async ({ request }) => {
      const { uid, productId } = await body<{ uid: string; productId: string }>(request);
      return saveCart(deleteFromCart(cartOf(uid), productId));
    }),
    http.post('/api/ecommerce/update-cart-amount', async ({ request }) => {
      const { uid, productId, amount } = await body<{ uid: string; productId: string; amount: number }>(request);
      return saveCart(updateCartAmount(cartOf(uid), productId, amount));
    }),

    // Auth (section 8's demo messages).
    http.post('/api/auth/login', async ({ request }) => {
      await delay(loginDelayMs);
      const { email, password } = await body<{ email: string; password: string }>(request);
      const account = accounts.find((candidate) => candidate.email === email && candidate.password === password);
      if (!account) return fail(DEMO_ERRORS.invalidCredentials);
      return HttpResponse.json({ accessToken: issueToken(account.id, now()), user: publicUser(account) });
    }),
    http.post('/api/auth/register', async ({ request }) => {
      const { email, username, password } = await body<{ email: string; username: string; password: string }>(request);
      if (!email || !password) return fail(DEMO_ERRORS.serverError);
      if (accounts.some((candidate) => candidate.email === email)) return fail(DEMO_ERRORS.userExists);
      const account = { id: `demo-${accounts.length + 1}`, email, password, name: username || email, role: 'GUEST' };
      accounts.push(account);
      return HttpResponse.json({ accessToken: issueToken(account.id, now()), user: publicUser(account) });
    }),
    http.get('/api/auth/profile', ({ request }) => {
      const id = readToken(request.headers.get('authorization'), now());
      const account = accounts.find((candidate) => candidate.id === id);
      return account ? HttpResponse.json({ user: publicUser(account) }) : fail(DEMO_ERRORS.invalidToken);
    }),

    // Invoices, calendar, users, inbox, chat, to-do and the list page.
    http.get('/api/invoices', () => HttpResponse.json(invoices)),
    http.get('/api/invoices/:id', ({ params }) => {
      const invoice = invoices.find((candidate) => candidate.id === params.id);
      return invoice ? HttpResponse.json(invoice) : fail(DEMO_ERRORS.serverError);
    }),
    http.put('/api/invoices/:id', async ({ params, request }) => {
      const index = invoices.findIndex((candidate) => candidate.id === params.id);
      if (index < 0) return fail(DEMO_ERRORS.serverError);
      const change = await body<Partial<(typeof invoices)[number]>>(request);
      invoices[index] = {
        ...invoices[index]!,
        buyer: change.buyer ?? invoices[index]!.buyer,
        status: change.status ?? invoices[index]!.status,
      };
      return HttpResponse.json(invoices[index]);
    }),
    http.get('/api/calendar/events', () => HttpResponse.json(events)),
    http.post('/api/calendar/events', async ({ request }) => {
      const { title, day } = await body<{ title: string; day: number }>(request);
      events.push({ id: `e${events.length + 1}`, title, day, allDay: true });
      return HttpResponse.json(events);
    }),
    http.get('/api/user/all', list([...PEOPLE])),
    http.get('/api/inbox/all', list(INBOX)),
    http.get('/api/chat/contacts', list(CHAT.contacts)),
    http.get('/api/chat/messages', () => HttpResponse.json(messages)),
    http.post('/api/chat/messages', async ({ request }) => {
      const { contactId, text } = await body<{ contactId: string; text: string }>(request);
      messages.push({ id: `msg${messages.length + 1}`, contactId, fromMe: true, text, timestamp: now() });
      return HttpResponse.json(messages);
    }),
    http.get('/api/todo/all', () => HttpResponse.json(todos)),
    http.post('/api/todo/update', async ({ request }) => {
      const change = await body<{ id: string; done: boolean }>(request);
      const todo = todos.find((candidate) => candidate.id === change.id);
      if (!todo) return fail(DEMO_ERRORS.serverError);
      todo.done = change.done;
      return HttpResponse.json(todos);
    }),
    http.get('/api/list/all', list(LIST_ITEMS)),
  ];
}
