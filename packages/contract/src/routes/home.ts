import { groupPermissionPaths } from '../navigation';
import { homeSummarySchema } from '../home';
import { route } from '../route-table';

/** The home: the portfolio's figures, for anyone holding a Cartera permission. */
export const homeRoutes = {
  summary: route({
    method: 'GET',
    path: '/home/summary',
    summary: 'Inicio: cifras de la cartera a la fecha flujo',
    tags: ['cartera'],
    access: { anyPermission: groupPermissionPaths('wallet') },
    response: { 200: homeSummarySchema },
  }),
};
