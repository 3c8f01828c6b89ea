import type { FastifyPluginAsync } from 'fastify';
import { EMPLOYER_STATEMENT_LINE_COLUMNS, employerStatementRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';
import { excelSerialDay, sendXlsx, sheetColumns } from '../../lib/xlsx-export';
import { mexicoToday } from '../shared/business-date';
import { employerStatementLines, employerStatementOf, missingLinesBatch } from './employer-statement.queries';

/** Cartera → Estado de cuenta por convenio over HTTP. */
export function employerStatementRoutesPlugin(deps: AppDeps): FastifyPluginAsync {
  const today = () => mexicoToday(deps.clock.now());
  return async (app) => {
    register(app, employerStatementRoutes.month, async (request) => employerStatementOf(request.db, request.query));
    register(app, employerStatementRoutes.lines, async (request) => employerStatementLines(request.db, request.query, today()));
    register(
      app,
      employerStatementRoutes.missingExport,
      async (request, reply) => {
        const query = request.query;
        const day = today();
        return sendXlsx(request, reply, {
          filename: `faltantes-${query.payday}.xlsx`,
          sheet: 'Faltantes',
          columns: sheetColumns(EMPLOYER_STATEMENT_LINE_COLUMNS),
          read: ({ last }, limit) =>
            request.inScope((tx) =>
              missingLinesBatch(
                tx,
                query,
                day,
                last ? { employeeNumber: String(last.employeeNumber), number: Number(last.number) } : undefined,
                limit,
              ),
            ),
          toCells: (line) => ({
            ...line,
            payday: excelSerialDay(line.payday),
            instructedAmount: line.instructedAmount === null ? null : Number(line.instructedAmount),
            receivedAmount: line.receivedAmount === null ? null : Number(line.receivedAmount),
          }),
        });
      },
      { streamsAnswer: true },
    );
  };
}
