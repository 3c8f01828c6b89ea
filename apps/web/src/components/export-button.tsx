import { useState } from 'react';
import Button from '@mui/material/Button';
import type { RouteDefinition } from '@portal/contract';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { downloadFromApi, exportQuery } from '../lib/download';

/**
 * "Exportar a Excel" for a list: the API's export of the current filter, with its progress and its failure; off while
 * the filter finds nothing (`empty`), which would download a workbook of headers.
 */
export function ExportButton(props: {
  route: RouteDefinition & { method: 'GET'; params?: never };
  queryString: string;
  fallbackName: string;
  onError: (message: string) => void;
  empty?: boolean;
}) {
  const [exporting, setExporting] = useState(false);
  return (
    <Button
      variant="outlined"
      startIcon={<FileDownloadOutlined />}
      disabled={exporting || props.empty === true}
      onClick={() => {
        setExporting(true);
        downloadFromApi(props.route, exportQuery(props.queryString), props.fallbackName)
          .catch((error: Error) => props.onError(error.message))
          .finally(() => setExporting(false));
      }}
    >
      {exporting ? 'Exportando…' : 'Exportar a Excel'}
    </Button>
  );
}
