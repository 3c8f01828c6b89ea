import { idParams } from '../common';
import { route } from '../route-table';
import { creditSchema } from '../requests';

/** Cartera: the credit's read-only view, its terms snapshot and its schedule (the wallet screens build on this). */
export const creditRoutes = {
  get: route({
    method: 'GET',
    path: '/credits/:id',
    summary: 'Un crédito: condiciones, saldo y tabla de amortización',
    tags: ['cartera'],
    access: { permission: '/wallet/credits/credits-list' },
    params: idParams,
    response: { 200: creditSchema },
  }),
} as const;
