import { BRANDS, CATEGORIES, PRODUCT_TOTAL_UNIT, RATINGS } from '../constants';
import type { Notification, ScrumBoard } from './state';

/** The template's fake, in-memory data: fixed values (no randomness) so the pages and tests are stable. */

export interface Product {
  id: string;
  imgUrl: string;
  price: number;
  totalUnit: number;
  title: string;
  category: (typeof CATEGORIES)[number];
  brand: (typeof BRANDS)[number];
  rating: number;
  freeShipping: boolean;
  description: string;
}

const PRODUCT_NAMES = [
  'Audífonos inalámbricos',
  'Chamarra de mezclilla',
  'Teléfono 128 GB',
  'Funda de piel',
  'Bocina portátil',
  'Tenis deportivos',
  'Teléfono plegable',
  'Cargador rápido',
  'Barra de sonido',
  'Lentes de sol',
  'Teléfono compacto',
  'Reloj inteligente',
] as const;

const DAY = 24 * 3600 * 1000;
/** A fixed "now" for the demo's dates, so relative times read the same on every run of the tests. */
export const DEMO_EPOCH = Date.UTC(2026, 10, 20, 15, 0, 0);

export const PRODUCTS: Product[] = PRODUCT_NAMES.map((title, index) => ({
  id: `p${index + 1}`,
  imgUrl: '',
  price: 349 + index * 275,
  totalUnit: PRODUCT_TOTAL_UNIT,
  title,
  category: CATEGORIES[index % CATEGORIES.length]!,
  brand: BRANDS[index % BRANDS.length]!,
  rating: RATINGS[(index * 3) % RATINGS.length]!,
  freeShipping: index % 3 !== 1,
  description: `${title} de la marca ${BRANDS[index % BRANDS.length]}: artículo de demostración de la tienda de la plantilla.`,
}));

const countBy = <K extends string | number>(keys: readonly K[], keyOf: (product: Product) => K) =>
  keys.map((key) => ({ key, product: PRODUCTS.filter((product) => keyOf(product) === key).length }));

export const CATEGORY_LIST = countBy(CATEGORIES, (product) => product.category).map(({ key, product }) => ({ title: key, product }));
export const BRAND_LIST = countBy(BRANDS, (product) => product.brand).map(({ key, product }) => ({ title: key, product }));
export const RATING_LIST = countBy(RATINGS, (product) => product.rating).map(({ key, product }) => ({ rate: key, product }));

export const ECOMMERCE_USER = { id: 'u-demo-1', name: 'Lucía Hernández', avatar: '' };

export const NOTIFICATIONS: Notification[] = [
  {
    heading: 'Mensaje',
    icon: { name: 'chat', color: 'primary' },
    title: 'Nuevo mensaje de Pedro',
    subtitle: '¿Revisamos el tablero hoy?',
    path: '/chat',
    minutes: 5,
  },
  {
    heading: 'Alerta',
    icon: { name: 'notifications', color: 'error' },
    title: 'Servidor con carga alta',
    subtitle: 'CPU al 92 %',
    path: '/dashboard/analytics',
    minutes: 90,
  },
  {
    heading: 'Mensaje',
    icon: { name: 'chat', color: 'primary' },
    title: 'Factura enviada',
    subtitle: 'La factura 1003 fue enviada',
    path: '/invoice/list',
    minutes: 60 * 26,
  },
  {
    heading: 'Tarea',
    icon: { name: 'check', color: 'success' },
    title: 'Tarea completada',
    subtitle: 'Revisión de diseño',
    path: '/todo/list',
    minutes: 60 * 24 * 40,
  },
].map(({ minutes, ...rest }, index) => ({ ...rest, id: `n${index + 1}`, timestamp: DEMO_EPOCH - minutes * 60_000 }));

export const PEOPLE = [
  { id: 'm1', name: 'Ana Torres', email: 'ana.torres@ejemplo.mx', role: 'Diseño', city: 'Guadalajara', balance: 12500 },
  { id: 'm2', name: 'Pedro Ramírez', email: 'pedro.ramirez@ejemplo.mx', role: 'Desarrollo', city: 'Monterrey', balance: 8300 },
  { id: 'm3', name: 'Sofía Castillo', email: 'sofia.castillo@ejemplo.mx', role: 'Ventas', city: 'Puebla', balance: 22040 },
  { id: 'm4', name: 'Jorge Medina', email: 'jorge.medina@ejemplo.mx', role: 'Soporte', city: 'Mérida', balance: 4100 },
  { id: 'm5', name: 'Valeria Ortiz', email: 'valeria.ortiz@ejemplo.mx', role: 'Finanzas', city: 'Querétaro', balance: 17950 },
  { id: 'm6', name: 'Diego Navarro', email: 'diego.navarro@ejemplo.mx', role: 'Desarrollo', city: 'León', balance: 9900 },
] as const;

export const LABELS = [
  { id: 'l1', title: 'Urgente', color: 'error' },
  { id: 'l2', title: 'Diseño', color: 'secondary' },
  { id: 'l3', title: 'Backend', color: 'primary' },
] as const;

const card = (id: string, title: string, labels: string[], members: string[]) => ({ id, title, labels, members });

export const BOARDS: ScrumBoard[] = [
  {
    id: 'b1',
    title: 'Lanzamiento de la tienda',
    lists: [
      {
        id: 'backlog',
        title: 'Pendientes',
        cardList: [
          card('c1', 'Definir catálogo', ['l2'], ['m1']),
          card('c2', 'Pasarela de pago', ['l1', 'l3'], ['m2']),
          card('c3', 'Textos legales', [], ['m5']),
        ],
      },
      { id: 'doing', title: 'En curso', cardList: [card('c4', 'Carrito de compras', ['l3'], ['m6', 'm2'])] },
      { id: 'done', title: 'Hecho', cardList: [card('c5', 'Maqueta de inicio', ['l2'], ['m1'])] },
    ],
  },
  {
    id: 'b2',
    title: 'Migración de servidores',
    lists: [
      { id: 'backlog', title: 'Pendientes', cardList: [card('c6', 'Inventario de servicios', [], ['m4'])] },
      { id: 'doing', title: 'En curso', cardList: [] },
      { id: 'done', title: 'Hecho', cardList: [] },
    ],
  },
];

export interface Invoice {
  id: string;
  orderNo: string;
  buyer: string;
  seller: string;
  status: 'pendiente' | 'enviada' | 'entregada';
  date: number;
  items: { name: string; unitPrice: number; unit: number }[];
  vat: number;
}

export const INVOICES: Invoice[] = [
  ['232435434', 'Comercial del Bajío', 'entregada', 3],
  ['545345667', 'Papelería Morelos', 'enviada', 9],
  ['798723472', 'Ferretería Juárez', 'pendiente', 15],
  ['123980876', 'Abarrotes La Esperanza', 'pendiente', 21],
].map(([orderNo, buyer, status, days], index) => ({
  id: String(1001 + index),
  orderNo: String(orderNo),
  buyer: String(buyer),
  seller: 'Plantilla Demo S.A. de C.V.',
  status: status as Invoice['status'],
  date: DEMO_EPOCH - Number(days) * DAY,
  items: PRODUCTS.slice(index, index + 3).map((product, line) => ({ name: product.title, unitPrice: product.price, unit: line + 1 })),
  vat: 16,
}));

export const EVENTS = [
  { id: 'e1', title: 'Revisión de sprint', day: 3, allDay: false },
  { id: 'e2', title: 'Cierre de mes', day: 30, allDay: true },
  { id: 'e3', title: 'Comida de equipo', day: 12, allDay: false },
  { id: 'e4', title: 'Capacitación', day: 18, allDay: true },
];

export const INBOX = PEOPLE.slice(0, 5).map((person, index) => ({
  id: `mail${index + 1}`,
  from: person.name,
  subject: ['Propuesta comercial', 'Minuta de la reunión', 'Factura pendiente', 'Vacaciones de diciembre', 'Acceso al tablero'][index]!,
  preview: 'Hola, te comparto la información que platicamos para que la revises cuando puedas.',
  timestamp: DEMO_EPOCH - (index + 1) * (index + 1) * 47 * 60_000,
  read: index > 1,
}));

export const CHAT = {
  contacts: PEOPLE.slice(0, 4).map((person, index) => ({
    id: person.id,
    name: person.name,
    status: index % 2 === 0 ? 'en línea' : 'ausente',
  })),
  messages: [
    { contactId: 'm1', fromMe: false, text: '¿Ya viste los cambios del tablero?', minutes: 42 },
    { contactId: 'm1', fromMe: true, text: 'Sí, los reviso en un momento.', minutes: 40 },
    { contactId: 'm1', fromMe: false, text: 'Perfecto, gracias.', minutes: 3 },
    { contactId: 'm2', fromMe: false, text: 'Subí la nueva versión del carrito.', minutes: 300 },
  ].map(({ minutes, ...rest }, index) => ({ ...rest, id: `msg${index + 1}`, timestamp: DEMO_EPOCH - minutes * 60_000 })),
};

export const TODOS = [
  { id: 't1', title: 'Preparar presentación trimestral', done: false, tag: 'Trabajo' },
  { id: 't2', title: 'Responder correos de clientes', done: true, tag: 'Trabajo' },
  { id: 't3', title: 'Actualizar tablero de ventas', done: false, tag: 'Equipo' },
  { id: 't4', title: 'Agendar revisión de diseño', done: false, tag: 'Equipo' },
];

export const LIST_ITEMS = PRODUCTS.slice(0, 8).map((product) => ({
  id: product.id,
  title: product.title,
  category: product.category,
  price: product.price,
}));
