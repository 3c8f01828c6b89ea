/**
 * The demo stores' rules (seed section 4), as pure functions: each takes the state and answers the next one
 * without touching its input. The fake API keeps the state; the tests check the rules.
 */

export interface CartEntry {
  productId: string;
  amount: number;
}

export interface Cart {
  uid: string;
  list: CartEntry[];
}

/** An existing product's amount goes up by 1; a new product is appended with amount 1. */
export function addToCart(cart: Cart, productId: string): Cart {
  const existing = cart.list.some((entry) => entry.productId === productId);
  return {
    ...cart,
    list: existing
      ? cart.list.map((entry) => (entry.productId === productId ? { ...entry, amount: entry.amount + 1 } : entry))
      : [...cart.list, { productId, amount: 1 }],
  };
}

export function deleteFromCart(cart: Cart, productId: string): Cart {
  return { ...cart, list: cart.list.filter((entry) => entry.productId !== productId) };
}

/** Sets the amount to the value given (not an increment). */
export function updateCartAmount(cart: Cart, productId: string, amount: number): Cart {
  return { ...cart, list: cart.list.map((entry) => (entry.productId === productId ? { ...entry, amount } : entry)) };
}

export interface Notification {
  id: string;
  heading: string;
  icon: { name: string; color: string };
  timestamp: number;
  title: string;
  subtitle: string;
  path: string;
}

export const deleteNotification = (list: readonly Notification[], id: string): Notification[] => list.filter((item) => item.id !== id);
export const deleteAllNotifications = (): Notification[] => [];
/** The template's "add" answers the list as it was: the seed keeps that quirk. */
export const addNotification = (list: readonly Notification[]): Notification[] => [...list];

export interface ScrumCard {
  id: string;
  title: string;
  labels: string[];
  members: string[];
}

export interface ScrumList {
  id: string;
  title: string;
  cardList: ScrumCard[];
}

export interface ScrumBoard {
  id: string;
  title: string;
  lists: ScrumList[];
}

function moveWithin<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/** Moves a card inside one list from startIndex to endIndex. */
export function reorderCard(board: ScrumBoard, listId: string, startIndex: number, endIndex: number): ScrumBoard {
  return {
    ...board,
    lists: board.lists.map((list) => (list.id === listId ? { ...list, cardList: moveWithin(list.cardList, startIndex, endIndex) } : list)),
  };
}

/** Takes the card at `source` out of one list and inserts it into another list at `destination`. */
export function moveCard(
  board: ScrumBoard,
  sourceListId: string,
  destinationListId: string,
  source: number,
  destination: number,
): ScrumBoard {
  if (sourceListId === destinationListId) return reorderCard(board, sourceListId, source, destination);
  const card = board.lists.find((list) => list.id === sourceListId)?.cardList[source];
  if (!card || !board.lists.some((list) => list.id === destinationListId)) return board;
  return {
    ...board,
    lists: board.lists.map((list) => {
      if (list.id === sourceListId) return { ...list, cardList: list.cardList.filter((_, index) => index !== source) };
      if (list.id === destinationListId)
        return { ...list, cardList: [...list.cardList.slice(0, destination), card, ...list.cardList.slice(destination)] };
      return list;
    }),
  };
}
