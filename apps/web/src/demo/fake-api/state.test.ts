import { describe, expect, it } from 'vitest';
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
  type Notification,
  type ScrumBoard,
} from './state';

const cart: Cart = { uid: 'u1', list: [{ productId: 'p1', amount: 2 }] };

describe('cart rules (seed section 4)', () => {
  it('raises the amount of a product already in the cart by 1', () => {
    expect(addToCart(cart, 'p1').list).toEqual([{ productId: 'p1', amount: 3 }]);
  });
  it('appends a new product with amount 1', () => {
    expect(addToCart(cart, 'p2').list).toEqual([
      { productId: 'p1', amount: 2 },
      { productId: 'p2', amount: 1 },
    ]);
  });
  it('removes an entry on delete and leaves the others', () => {
    expect(deleteFromCart(addToCart(cart, 'p2'), 'p1').list).toEqual([{ productId: 'p2', amount: 1 }]);
  });
  it('sets the amount to the value given on update', () => {
    expect(updateCartAmount(cart, 'p1', 7).list).toEqual([{ productId: 'p1', amount: 7 }]);
  });
  it('never changes the cart it was given', () => {
    addToCart(cart, 'p1');
    updateCartAmount(cart, 'p1', 9);
    deleteFromCart(cart, 'p1');
    expect(cart).toEqual({ uid: 'u1', list: [{ productId: 'p1', amount: 2 }] });
  });
});

const notification = (id: string): Notification => ({
  id,
  heading: 'Mensaje',
  icon: { name: 'chat', color: 'primary' },
  timestamp: 0,
  title: `Aviso ${id}`,
  subtitle: '',
  path: '/chat',
});

describe('notification rules (seed section 4)', () => {
  const list = [notification('a'), notification('b'), notification('c')];
  it('deletes one by id', () => {
    expect(deleteNotification(list, 'b').map((item) => item.id)).toEqual(['a', 'c']);
  });
  it('empties the list on delete-all', () => {
    expect(deleteAllNotifications()).toEqual([]);
  });
  it('leaves the list unchanged on add', () => {
    expect(addNotification(list)).toEqual(list);
  });
});

const board: ScrumBoard = {
  id: 'b1',
  title: 'Tablero',
  lists: [
    { id: 'todo', title: 'Por hacer', cardList: ['c1', 'c2', 'c3'].map((id) => ({ id, title: id, labels: [], members: [] })) },
    { id: 'done', title: 'Hecho', cardList: [{ id: 'c4', title: 'c4', labels: [], members: [] }] },
  ],
};
const ids = (value: ScrumBoard) => value.lists.map((list) => list.cardList.map((card) => card.id));

describe('scrum board rules (seed section 4)', () => {
  it('reorders a card inside one list from the start index to the end index', () => {
    expect(ids(reorderCard(board, 'todo', 0, 2))).toEqual([['c2', 'c3', 'c1'], ['c4']]);
    expect(ids(reorderCard(board, 'todo', 2, 0))).toEqual([['c3', 'c1', 'c2'], ['c4']]);
  });
  it('moves a card from the source list at the source index into the destination list at the destination index', () => {
    expect(ids(moveCard(board, 'todo', 'done', 1, 0))).toEqual([
      ['c1', 'c3'],
      ['c2', 'c4'],
    ]);
    expect(ids(moveCard(board, 'done', 'todo', 0, 3))).toEqual([['c1', 'c2', 'c3', 'c4'], []]);
  });
  it('treats a move inside one list as a reorder and ignores an unknown card', () => {
    expect(ids(moveCard(board, 'todo', 'todo', 0, 1))).toEqual([['c2', 'c1', 'c3'], ['c4']]);
    expect(moveCard(board, 'todo', 'done', 9, 0)).toBe(board);
  });
  it('keeps every card exactly once', () => {
    const moved = moveCard(reorderCard(board, 'todo', 1, 0), 'todo', 'done', 2, 1);
    expect(ids(moved).flat().sort()).toEqual(['c1', 'c2', 'c3', 'c4']);
  });
});
