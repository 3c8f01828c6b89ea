import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { labelRoutes, type LabelUpdateRequest } from '@portal/contract';
import { call, upload } from '../../lib/api-client';
import { creditListKeys } from '../../lib/credit-list';

/** Créditos → Actualizar Etiqueta: the catalogue, reading a file into rows, the preview and the application. */

export const labelKeys = { catalogue: ['labels', 'catalogue'] as const };

export const useLabelCatalogue = () => useQuery({ queryKey: labelKeys.catalogue, queryFn: () => call(labelRoutes.catalogue) });

/** Sends the file as it is; the API reads its folio, etiqueta and acción columns. */
export const useReadLabelFile = () =>
  useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return upload(labelRoutes.readFile, { body });
    },
  });

export const usePreviewLabels = () => useMutation({ mutationFn: (body: LabelUpdateRequest) => call(labelRoutes.preview, { body }) });

/** Applying changes credits' labels: every credits list and view is asked again. */
export function useApplyLabels() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LabelUpdateRequest) => call(labelRoutes.apply, { body }),
    onSettled: () => client.invalidateQueries({ queryKey: creditListKeys.all }),
  });
}
