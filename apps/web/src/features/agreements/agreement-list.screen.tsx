import { useState } from 'react';
import AddBusinessOutlined from '@mui/icons-material/AddBusinessOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import {
  AGREEMENT_COLUMNS,
  FREQUENCY_LABELS,
  PAY_FREQUENCIES,
  SECTORS,
  SECTOR_LABELS,
  agreementRoutes,
  columnLabel,
  type AgreementListItem,
} from '@portal/contract';
import { gridColumns } from '../../components/declared-columns';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { STATUS_FILTER_OPTIONS, statusActionColumn, statusColumn, useStatusToggle } from '../../components/status-columns';
import { agreementListQuery, useSetAgreementStatus } from './agreements.queries';
import { RenewalMinimumSection } from './renewal-minimum';

type AgreementColumn = (typeof AGREEMENT_COLUMNS)[number]['key'];

export default function AgreementListScreen() {
  const setStatus = useSetAgreementStatus();
  const [notice, setNotice] = useState<Notice | null>(null);
  const toggle = useStatusToggle<AgreementListItem>({
    setStatus: setStatus.mutateAsync,
    describe: (agreement, deactivate) =>
      deactivate
        ? {
            title: 'Desactivar convenio',
            message: `${agreement.code} dejará de recibir solicitudes nuevas. Sus créditos siguen igual. ¿Desactivarlo?`,
            done: 'Convenio desactivado.',
          }
        : {
            title: 'Activar convenio',
            message: `${agreement.code} volverá a recibir solicitudes. ¿Activarlo?`,
            done: 'Convenio activado.',
          },
    onNotice: setNotice,
  });

  const columns: GridColDef<AgreementListItem>[] = [
    ...gridColumns<AgreementListItem, AgreementColumn>(AGREEMENT_COLUMNS, {
      code: { width: 120 },
      name: { flex: 1.4, minWidth: 220 },
      employerName: { flex: 1.2, minWidth: 200 },
      sector: { width: 110, valueFormatter: (value: AgreementListItem['sector']) => SECTOR_LABELS[value] },
      frequency: { width: 120, valueFormatter: (value: AgreementListItem['frequency']) => FREQUENCY_LABELS[value] },
      company: { flex: 0.8, minWidth: 150 },
      activeProducts: { width: 140, sortable: false, type: 'number' },
    }),
    { ...statusColumn<AgreementListItem>(), headerName: columnLabel(AGREEMENT_COLUMNS, 'status') },
    statusActionColumn<AgreementListItem>({ activateLabel: 'Activar', onToggle: (row) => void toggle(row), width: 120 }),
  ];

  return (
    <ListScreen<AgreementListItem>
      title="Lista de Convenios"
      aria-label="Convenios"
      query={agreementListQuery}
      defaults={{ sort: 'code' }}
      searchLabel="Buscar por clave, convenio o patrón"
      filters={[
        { kind: 'company', key: 'companyId' },
        {
          kind: 'select',
          key: 'sector',
          label: 'Sector',
          options: SECTORS.map((sector) => ({ value: sector, label: SECTOR_LABELS[sector] })),
        },
        {
          kind: 'select',
          key: 'frequency',
          label: 'Periodicidad',
          options: PAY_FREQUENCIES.map((frequency) => ({ value: frequency, label: FREQUENCY_LABELS[frequency] })),
        },
        { kind: 'select', key: 'status', label: 'Estado', options: STATUS_FILTER_OPTIONS },
      ]}
      exportTo={{ route: agreementRoutes.export, fallbackName: 'convenios.xlsx' }}
      create={{ to: '/catalog/contract-new', label: 'Nuevo convenio', icon: <AddBusinessOutlined /> }}
      columns={columns}
      rowTo={(row) => `/catalog/contract-edit/${row.id}`}
      emptyText="No hay convenios con estos filtros."
      notice={notice}
      onNotice={setNotice}
    >
      <RenewalMinimumSection onNotice={setNotice} />
    </ListScreen>
  );
}
