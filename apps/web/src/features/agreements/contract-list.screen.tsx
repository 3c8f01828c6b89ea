import { useState } from 'react';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import AddBusinessOutlined from '@mui/icons-material/AddBusinessOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { Link, useNavigate } from 'react-router';
import { FREQUENCY_LABELS, PAY_FREQUENCIES, SECTORS, SECTOR_LABELS, type AgreementListItem } from '@portal/contract';
import { hasPermission } from '../../app/auth/session';
import { useSession } from '../../app/auth/use-session';
import { useConfirm } from '../../app/shell/confirm-dialog';
import { CompanyFilter, FilterBar, SelectFilter } from '../../components/filter-bar';
import { ExportButton } from '../../components/export-button';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { ServerDataGrid } from '../../components/server-data-grid';
import { STATUS_FILTER_OPTIONS, statusActionColumn, statusColumn } from '../../components/status-columns';
import { useListState } from '../../lib/list-state';
import { useAgreementList, useSetAgreementStatus } from './agreements.queries';

export default function ContractListScreen() {
  const navigate = useNavigate();
  const session = useSession();
  const confirm = useConfirm();
  const { state, update, queryString } = useListState({ sort: 'code' });
  const list = useAgreementList(queryString);
  const setStatus = useSetAgreementStatus();
  const [message, setMessage] = useState<Notice | null>(null);

  const toggle = async (agreement: AgreementListItem) => {
    const deactivate = agreement.active;
    const yes = await confirm({
      title: deactivate ? 'Desactivar convenio' : 'Activar convenio',
      destructive: deactivate,
      message: deactivate
        ? `${agreement.code} dejará de recibir solicitudes nuevas. Sus créditos siguen igual. ¿Desactivarlo?`
        : `${agreement.code} volverá a recibir solicitudes. ¿Activarlo?`,
    });
    if (!yes) return;
    try {
      await setStatus.mutateAsync({ id: agreement.id, active: !deactivate, version: agreement.version });
      setMessage({ kind: 'success', text: deactivate ? 'Convenio desactivado.' : 'Convenio activado.' });
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    }
  };

  const columns: GridColDef<AgreementListItem>[] = [
    { field: 'code', headerName: 'Clave', width: 120 },
    { field: 'name', headerName: 'Convenio', flex: 1.4, minWidth: 220 },
    { field: 'employerName', headerName: 'Patrón', flex: 1.2, minWidth: 200 },
    { field: 'sector', headerName: 'Sector', width: 110, valueFormatter: (value: AgreementListItem['sector']) => SECTOR_LABELS[value] },
    { field: 'frequency', headerName: 'Periodicidad', width: 120, valueFormatter: (value: AgreementListItem['frequency']) => FREQUENCY_LABELS[value] },
    { field: 'company', headerName: 'Empresa', flex: 0.8, minWidth: 150 },
    { field: 'activeProducts', headerName: 'Productos', width: 100, sortable: false, type: 'number' },
    statusColumn<AgreementListItem>(),
    statusActionColumn<AgreementListItem>({ activateLabel: 'Activar', onToggle: (row) => void toggle(row), width: 120 }),
  ];

  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Lista de Convenios
      </Typography>
      <FilterBar
        search={state.q}
        onSearch={(q) => update({ q })}
        searchLabel="Buscar por clave, convenio o patrón"
        actions={
          <>
            <ExportButton path="/api/agreements/export.xlsx" queryString={queryString} fallbackName="convenios.xlsx" onError={(text) => setMessage({ kind: 'error', text })} />
            {hasPermission(session, '/catalog/contract-new') && (
              <Button variant="contained" startIcon={<AddBusinessOutlined />} component={Link} to="/catalog/contract-new">
                Nuevo convenio
              </Button>
            )}
          </>
        }
      >
        <CompanyFilter value={state.filters.companyId ?? ''} onChange={(companyId) => update({ filters: { ...state.filters, companyId } })} />
        <SelectFilter
          label="Sector"
          value={state.filters.sector ?? ''}
          options={SECTORS.map((sector) => ({ value: sector, label: SECTOR_LABELS[sector] }))}
          onChange={(sector) => update({ filters: { ...state.filters, sector } })}
        />
        <SelectFilter
          label="Periodicidad"
          value={state.filters.frequency ?? ''}
          options={PAY_FREQUENCIES.map((frequency) => ({ value: frequency, label: FREQUENCY_LABELS[frequency] }))}
          onChange={(frequency) => update({ filters: { ...state.filters, frequency } })}
        />
        <SelectFilter label="Estado" value={state.filters.status ?? ''} options={STATUS_FILTER_OPTIONS} onChange={(status) => update({ filters: { ...state.filters, status } })} />
      </FilterBar>
      <ServerDataGrid<AgreementListItem>
        aria-label="Convenios"
        columns={columns}
        rows={list.data?.items ?? []}
        total={list.data?.total ?? 0}
        loading={list.isFetching}
        error={list.isError ? list.error.message : null}
        state={state}
        onChange={update}
        onRowClick={(row) => void navigate(`/catalog/contract-edit/${row.id}`)}
        emptyText="No hay convenios con estos filtros."
      />
      <NoticeSnackbar notice={message} onClose={() => setMessage(null)} />
    </Paper>
  );
}
