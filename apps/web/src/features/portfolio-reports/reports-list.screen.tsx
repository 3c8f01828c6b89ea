import { useState } from 'react';
import PostAddOutlined from '@mui/icons-material/PostAddOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { REPORT_DATASETS, REPORT_FORMATS, reportDataset, type ReportDefinition } from '@portal/contract';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { statusActionColumn, statusColumn, useStatusToggle } from '../../components/status-columns';
import { formatDateTime } from '../../lib/format';
import { reportDefinitionListQuery, useSetReportDefinitionStatus } from './reports.queries';

/** Admon Cartera → Lista Reportes Operativos: the company's definitions; a row opens its edit screen. */
export default function ReportsListScreen() {
  const setStatus = useSetReportDefinitionStatus();
  const [notice, setNotice] = useState<Notice | null>(null);
  const toggle = useStatusToggle<ReportDefinition>({
    setStatus: setStatus.mutateAsync,
    describe: (definition, deactivate) =>
      deactivate
        ? {
            title: 'Desactivar reporte',
            message: `«${definition.name}» dejará de poder ejecutarse. Sus ejecuciones anteriores se conservan. ¿Desactivarlo?`,
            done: 'Reporte desactivado.',
          }
        : { title: 'Activar reporte', message: `«${definition.name}» podrá ejecutarse de nuevo. ¿Activarlo?`, done: 'Reporte activado.' },
    onNotice: setNotice,
  });

  const columns: GridColDef<ReportDefinition>[] = [
    { field: 'name', headerName: 'Reporte', flex: 1.2, minWidth: 220 },
    {
      field: 'dataset',
      headerName: 'Conjunto de datos',
      flex: 1,
      minWidth: 180,
      valueFormatter: (value: string) => reportDataset(value)?.label ?? value,
    },
    {
      field: 'columns',
      headerName: 'Columnas',
      width: 100,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
      valueFormatter: (value: string[]) => String(value.length),
    },
    { field: 'format', headerName: 'Formato', width: 90, sortable: false, valueFormatter: (value: string) => value.toUpperCase() },
    {
      field: 'profiles',
      headerName: 'Perfiles',
      flex: 1,
      minWidth: 180,
      sortable: false,
      valueFormatter: (value: string[]) => value.join(', '),
    },
    { field: 'updatedAt', headerName: 'Último cambio', width: 160, valueFormatter: (value: string) => formatDateTime(value) },
    statusColumn<ReportDefinition>(),
    statusActionColumn<ReportDefinition>({ activateLabel: 'Activar', onToggle: (row) => void toggle(row), width: 120 }),
  ];

  return (
    <ListScreen<ReportDefinition>
      title="Lista Reportes Operativos"
      aria-label="Reportes operativos"
      query={reportDefinitionListQuery}
      defaults={{ sort: 'name' }}
      searchLabel="Buscar por nombre"
      filters={[
        {
          kind: 'select',
          key: 'dataset',
          label: 'Conjunto de datos',
          options: REPORT_DATASETS.map((dataset) => ({ value: dataset.key, label: dataset.label })),
        },
        {
          kind: 'select',
          key: 'format',
          label: 'Formato',
          options: REPORT_FORMATS.map((format) => ({ value: format, label: format.toUpperCase() })),
        },
      ]}
      create={{ to: '/admon-wallet/reports-new', label: 'Nuevo reporte', icon: <PostAddOutlined /> }}
      columns={columns}
      rowTo={(row) => `/admon-wallet/report-edit/${row.id}`}
      emptyText="No hay reportes definidos con estos filtros."
      storageKey="report-definitions"
      hiddenOnPhone={['columns', 'format', 'profiles', 'updatedAt']}
      notice={notice}
      onNotice={setNotice}
    />
  );
}
