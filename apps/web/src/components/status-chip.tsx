import Chip, { type ChipProps } from '@mui/material/Chip';

/**
 * Every status the portal shows, in one chip with one colour per meaning, so "aprobada" or "vigente" looks the same
 * in a grid, a detail panel and a header. Colours meet 4.5:1 through the theme's contrast threshold.
 */
const COLORS: Record<string, ChipProps['color']> = {
  // Requests
  capturada: 'default',
  'en validación': 'info',
  aprobada: 'success',
  rechazada: 'error',
  dispersada: 'primary',
  cancelada: 'warning',
  // Pre-requests and their verdict
  borrador: 'default',
  enviada: 'info',
  convertida: 'primary',
  vencida: 'warning',
  'pre-aprobada': 'success',
  // Credits and installments
  vigente: 'success',
  vencido: 'error',
  liquidado: 'default',
  pendiente: 'default',
  pagado: 'success',
  // Payment files, their rows and the payments they made ('aplicado' reads as done; 'revertido' as undone)
  cargado: 'default',
  validado: 'info',
  aplicado: 'success',
  rechazado: 'error',
  revertido: 'warning',
  válido: 'success',
  sobrepago: 'warning',
  'crédito no encontrado': 'error',
  'duplicado en archivo': 'error',
  'monto inválido': 'error',
  'crédito liquidado': 'error',
  'crédito de otro convenio': 'error',
  'dato no válido': 'error',
  'crédito en baja': 'error',
  'importe distinto': 'warning',
  // Background work (report runs)
  'en espera': 'default',
  'en curso': 'info',
  completado: 'success',
  fallido: 'error',
  // Mail and its delivery (the outbox)
  'por enviar': 'info',
  enviando: 'info',
  enviado: 'success',
  'no se pudo enviar': 'error',
  'sin servidor de correo': 'default',
  // Records that can be switched off
  activo: 'success',
  inactivo: 'default',
};

/** `status` as the API names it (lower case); shown as such, or as `label` when it needs saying more, with the colour of its meaning. */
export function StatusChip({
  status,
  label,
  size = 'small',
  'aria-label': ariaLabel,
}: {
  status: string;
  label?: string;
  size?: ChipProps['size'];
  'aria-label'?: string;
}) {
  return <Chip size={size} color={COLORS[status] ?? 'default'} label={label ?? status} aria-label={ariaLabel} />;
}
