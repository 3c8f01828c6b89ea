import { exportQuery, idParams } from '../common';
import { XLSX_CONTENT_TYPE, fileAnswer, route } from '../route-table';
import {
  accessLinkSchema,
  userDetailSchema,
  userInputSchema,
  userListQuerySchema,
  userListResponseSchema,
  userStatusSchema,
  userUpdateSchema,
} from '../users';

const tags = ['usuarios'] as const;

/** Usuarios: the list, its export, a user's detail, create, edit, switch on/off and resend access. */
export const userRoutes = {
  list: route({
    method: 'GET',
    path: '/users',
    summary: 'Lista de usuarios (paginada, ordenada y filtrada en SQL)',
    tags,
    access: { permission: '/user/user-list' },
    query: userListQuerySchema,
    response: { 200: userListResponseSchema },
  }),
  export: route({
    method: 'GET',
    path: '/users/export.xlsx',
    summary: 'Exporta a Excel la lista con el filtro actual',
    tags,
    access: { permission: '/user/user-list' },
    query: exportQuery(userListQuerySchema),
    response: fileAnswer(XLSX_CONTENT_TYPE),
  }),
  get: route({
    method: 'GET',
    path: '/users/:id',
    summary: 'Un usuario con su historial de cambios',
    tags,
    access: { permission: '/user/user-list' },
    params: idParams,
    response: { 200: userDetailSchema },
  }),
  create: route({
    method: 'POST',
    path: '/users',
    summary: 'Crea un usuario (y, con el proveedor embebido, le envía su enlace de acceso)',
    tags,
    access: { permission: '/user/user-new' },
    body: userInputSchema,
    response: { 201: userDetailSchema },
  }),
  update: route({
    method: 'PUT',
    path: '/users/:id',
    summary: 'Edita un usuario (rechaza ediciones sobre una versión vieja)',
    tags,
    access: { permission: '/user/user-list' },
    params: idParams,
    body: userUpdateSchema,
    response: { 200: userDetailSchema },
  }),
  setStatus: route({
    method: 'POST',
    path: '/users/:id/status',
    summary: 'Desactiva o reactiva un usuario',
    tags,
    access: { permission: '/user/user-list' },
    params: idParams,
    body: userStatusSchema,
    response: { 200: userDetailSchema },
  }),
  accessLink: route({
    method: 'POST',
    path: '/users/:id/access-link',
    summary: 'Reenviar acceso: con el proveedor embebido, un enlace nuevo para crear la contraseña, mostrado una vez a quien lo pide',
    tags,
    // Whoever may create users may give them their access again.
    access: { permission: '/user/user-new' },
    params: idParams,
    response: { 200: accessLinkSchema },
  }),
} as const;
