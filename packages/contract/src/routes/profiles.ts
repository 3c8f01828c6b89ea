import { idParams, itemsResponse } from '../common';
import { noContent, route } from '../route-table';
import { companySchema, profileInputSchema, profileSchema, profileUpdateSchema } from '../users';

const tags = ['usuarios'] as const;
/** The user form's catalogues: for the list, a new user and the profiles screen alike. */
const userCatalogs = ['/user/user-list', '/user/user-new', '/user/profile-list'] as const;

/** Profiles (role code + permission paths) and the companies a user can belong to. */
export const profileRoutes = {
  list: route({
    method: 'GET',
    path: '/profiles',
    summary: 'Perfiles con sus permisos y cuántos usuarios los tienen',
    tags,
    access: { anyPermission: userCatalogs },
    response: { 200: itemsResponse(profileSchema) },
  }),
  companies: route({
    method: 'GET',
    path: '/companies',
    summary: 'Empresas a las que puede pertenecer un usuario',
    tags,
    // The user form and the agreement form both pick a company.
    access: { anyPermission: [...userCatalogs, '/catalog/contract-list', '/catalog/contract-new'] },
    response: { 200: itemsResponse(companySchema) },
  }),
  create: route({
    method: 'POST',
    path: '/profiles',
    summary: 'Crea un perfil',
    tags,
    access: { permission: '/user/profile-list' },
    body: profileInputSchema,
    response: { 201: profileSchema },
  }),
  update: route({
    method: 'PUT',
    path: '/profiles/:id',
    summary: 'Edita un perfil (rechaza ediciones sobre una versión vieja)',
    tags,
    access: { permission: '/user/profile-list' },
    params: idParams,
    body: profileUpdateSchema,
    response: { 200: profileSchema },
  }),
  remove: route({
    method: 'DELETE',
    path: '/profiles/:id',
    summary: 'Elimina un perfil que ningún usuario tiene',
    tags,
    access: { permission: '/user/profile-list' },
    params: idParams,
    response: noContent,
  }),
} as const;
