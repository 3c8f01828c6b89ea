import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import type { PaymentFile } from '@portal/contract';
import { useConfirm } from '../../components/confirm-dialog';
import { ReasonDialog, type ReasonDialogProps } from '../../components/reason-dialog';
import { DetailList } from '../../components/detail-list';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { formatCount, formatDate, formatMoney } from '../../lib/format';
import { isApplying, useApplyPaymentFile, useLaterPayments, useRejectPaymentFile, useRevertPaymentFile } from './payment-files.queries';

/**
 * What the upload screen's preview and the file's detail share: the file's totals, its application's progress and
 * outcome, and the actions its status allows this user (Aplicar, Rechazar archivo, Revertir). The API enforces the same
 * rules; the browser only hides what would be refused.
 */

const isPositive = (amount: string) => Number(amount) > 0;

/** Rows, valid and rejected rows with their amounts, what the agreement expected on the date and what is missing. */
export function FileFigures({ file }: { file: PaymentFile }) {
  const reverted = file.status === 'revertido';
  return (
    <DetailList
      aria-label="Totales del archivo"
      items={[
        { label: 'Filas', value: file.rowsTotal.toLocaleString('es-MX') },
        { label: 'Filas válidas', value: `${file.rowsValid.toLocaleString('es-MX')} · ${formatMoney(file.amountValid)}` },
        { label: 'Filas rechazadas', value: `${file.rowsRejected.toLocaleString('es-MX')} · ${formatMoney(file.amountRejected)}` },
        // Accepted rows a clerk checks before applying: those that pay the credit off, and those paying a deduction received already.
        ...(file.rowsOverpaying > 0
          ? [
              {
                label: 'Filas con sobrepago',
                value: `${file.rowsOverpaying.toLocaleString('es-MX')} · liquidan su crédito; lo que sobra queda como saldo a favor`,
              },
            ]
          : []),
        ...(file.rowsPaidElsewhere > 0
          ? [
              {
                label: 'Descuentos ya recibidos en otro archivo',
                value: `${file.rowsPaidElsewhere.toLocaleString('es-MX')} · se aplican como pagos adicionales`,
              },
            ]
          : []),
        {
          label: 'Esperado en la fecha',
          value: `${file.expectedCount.toLocaleString('es-MX')} descuentos · ${formatMoney(file.expectedAmount)}`,
        },
        { label: 'Recibido en el archivo', value: formatMoney(file.amountTotal) },
        // Expected on the date less what this file and the other applied files of the date pay.
        {
          label: 'Descuentos faltantes',
          value: `${file.missingCount.toLocaleString('es-MX')} · sin recibir en este archivo ni en otro aplicado de la fecha`,
        },
        ...(isPositive(file.overpayment)
          ? [{ label: reverted ? 'Sobrepago revertido' : 'Sobrepago (saldo a favor)', value: formatMoney(file.overpayment) }]
          : []),
        // A reverted file's payments were undone: what it had applied, said as such.
        ...(file.status === 'aplicado' ? [{ label: 'Importe aplicado', value: formatMoney(file.amountApplied) }] : []),
        ...(reverted ? [{ label: 'Importe revertido', value: formatMoney(file.amountApplied) }] : []),
      ]}
    />
  );
}

/** The application's state: waiting, rows done out of the valid ones, failed, or the file's final status. */
function ApplyState({ file, detailLink }: { file: PaymentFile; detailLink: boolean }) {
  const session = useSession();
  if (isApplying(file)) {
    const percent = file.rowsValid === 0 ? 0 : Math.round((file.applyDone / file.rowsValid) * 100);
    return (
      <Stack spacing={0.5}>
        <LinearProgress variant="determinate" value={percent} aria-label="Avance de la aplicación" />
        <Typography variant="body2" role="status">
          {file.applyState === 'en espera'
            ? 'En espera de aplicarse…'
            : `Aplicando: ${file.applyDone.toLocaleString('es-MX')} de ${file.rowsValid.toLocaleString('es-MX')} filas`}
        </Typography>
      </Stack>
    );
  }
  const link = detailLink && (
    <>
      {' '}
      <Link to={`/wallet/files-pay-detail/${file.id}`}>Ver detalle del archivo</Link>
    </>
  );
  // Its payments in Reporte de pagos, filtered by the file, for whom that screen is granted.
  const paymentsLink = hasPermission(session, '/wallet/application-pay-list') && (
    <>
      {' '}
      <Link to={`/wallet/application-pay-list?fileId=${file.id}`}>Ver sus pagos en el Reporte de pagos</Link>
    </>
  );
  switch (file.status) {
    case 'aplicado':
      return (
        <Alert severity="success">
          Archivo aplicado: {formatCount(file.rowsValid, 'pago', 'pagos')} por {formatMoney(file.amountApplied)}
          {isPositive(file.overpayment) && `, con ${formatMoney(file.overpayment)} de sobrepago como saldo a favor`}.{link}
          {paymentsLink}
        </Alert>
      );
    case 'rechazado':
      return (
        <Alert severity="warning">
          Archivo rechazado sin aplicar. Motivo: {file.statusReason ?? '—'}
          {link}
        </Alert>
      );
    case 'revertido':
      return (
        <Alert severity="warning">
          Archivo revertido: sus pagos se deshicieron. Motivo: {file.statusReason ?? '—'}
          {link}
          {paymentsLink}
        </Alert>
      );
    default:
      return file.applyState === 'fallido' ? (
        <Alert severity="error">La aplicación falló y no se aplicó ningún pago. {file.applyError ?? ''}</Alert>
      ) : null;
  }
}

/**
 * "Revertir": first asks whether later payments stand on the file's credits. While they do, the dialog names their
 * files, the newest first (the order to revert them in, each with the way to it), and the revert cannot be confirmed;
 * the API checks again on confirm.
 * Otherwise it names the later files whose rows for the credits this file paid off were refused as crédito liquidado.
 */
function RevertDialog({ file, ...props }: { file: PaymentFile } & Pick<ReasonDialogProps, 'busy' | 'failure' | 'onClose' | 'onConfirm'>) {
  const later = useLaterPayments(file.id);
  // A result kept from an earlier opening may be stale (a file applied since): it counts once asked again.
  const checking = later.isFetching;
  const blocked = !checking && later.data !== undefined && later.data.payments.length > 0;
  const notice = checking ? (
    <Typography variant="body2" role="status">
      Comprobando si hay pagos posteriores sobre sus créditos…
    </Typography>
  ) : later.isError ? (
    <Alert severity="warning">
      No se pudo comprobar si hay pagos posteriores ({later.error.message}). Al revertir se comprobará de nuevo.
    </Alert>
  ) : blocked ? (
    <Alert severity="warning" role="alert">
      Todavía no se puede revertir: después de aplicarlo se aplicaron otros archivos a sus créditos. Revierte primero estos, en este orden:
      <ol aria-label="Pagos posteriores">
        {later.data.payments.map((payment) => (
          <li key={payment.fileId ?? payment.creditId}>
            {payment.fileId ? (
              <Link to={`/wallet/files-pay-detail/${payment.fileId}`} onClick={props.onClose}>
                archivo {payment.fileName}
              </Link>
            ) : (
              'pago sin archivo'
            )}{' '}
            (descuento del {formatDate(payment.valueDate)};{' '}
            {payment.credits === 1
              ? `crédito ${payment.creditFolio}`
              : `${payment.credits.toLocaleString('es-MX')} créditos, entre ellos ${payment.creditFolio}`}
            )
          </li>
        ))}
      </ol>
      {later.data.total > later.data.payments.length &&
        `${later.data.total - later.data.payments.length === 1 ? 'Hay otro archivo' : `Hay ${(later.data.total - later.data.payments.length).toLocaleString('es-MX')} archivos más`} después de estos: revierte primero los de la lista y vuelve a intentarlo.`}
    </Alert>
  ) : later.data !== undefined && later.data.refusedAsPaidOff.length > 0 ? (
    <Alert severity="info">
      Al revertirlo, los créditos que este archivo liquidó vuelven a deber, y estos archivos rechazaron filas suyas como crédito liquidado:
      ese dinero queda sin aplicar hasta que lo cargues de nuevo.
      <ul aria-label="Filas rechazadas como crédito liquidado">
        {later.data.refusedAsPaidOff.map((refused) => (
          <li key={refused.fileId}>
            <Link to={`/wallet/files-pay-detail/${refused.fileId}`} onClick={props.onClose}>
              archivo {refused.fileName}
            </Link>
            :{' '}
            {refused.rows === 1
              ? `1 fila por ${formatMoney(refused.amount)} (crédito ${refused.creditFolio})`
              : `${refused.rows.toLocaleString('es-MX')} filas por ${formatMoney(refused.amount)} (entre ellas, del crédito ${refused.creditFolio})`}
          </li>
        ))}
      </ul>
    </Alert>
  ) : null;
  return (
    <ReasonDialog
      title={`Revertir archivo ${file.fileName}`}
      message={
        blocked
          ? `El archivo ${file.fileName} se revierte completo, y solo cuando ningún pago posterior depende de él.`
          : `Se revertirán ${file.rowsValid === 1 ? 'el pago' : `los ${file.rowsValid.toLocaleString('es-MX')} pagos`} del archivo ${file.fileName} por ${formatMoney(file.amountApplied)}: cada crédito vuelve exactamente a como estaba antes de aplicarlo.`
      }
      confirmLabel="Revertir"
      notice={notice}
      disabled={checking || blocked}
      {...props}
    />
  );
}

/**
 * The file's progress or outcome, and the actions its status allows: Aplicar (all valid rows at once, after a
 * confirmation naming them) and Rechazar archivo while validado, Revertir once aplicado. `detailLink` adds the way to
 * the file's detail (from the upload screen).
 */
export function FileActions({ file, detailLink = false }: { file: PaymentFile; detailLink?: boolean }) {
  const session = useSession();
  const confirm = useConfirm();
  const apply = useApplyPaymentFile(file.id);
  const reject = useRejectPaymentFile(file.id);
  const revert = useRevertPaymentFile(file.id);
  const [asking, setAsking] = useState<'reject' | 'revert' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [dialogFailure, setDialogFailure] = useState<string | null>(null);
  const open = file.status === 'validado' && !isApplying(file);
  const canApply = open && file.rowsValid > 0 && hasPermission(session, '/actions/wallet/apply-file');
  const canReject = open && hasPermission(session, '/wallet/upload-file-pay');
  const canRevert = file.status === 'aplicado' && hasPermission(session, '/actions/wallet/revert-file');
  const startApply = async () => {
    const one = file.rowsValid === 1;
    const message = [
      `Se ${one ? 'aplicará' : 'aplicarán'} ${formatCount(file.rowsValid, 'fila válida', 'filas válidas')} por ${formatMoney(file.amountValid)} del archivo ${file.fileName} (${file.agreement}, descuento del ${formatDate(file.discountDate)})${one ? '' : ', todas en una sola operación'}.`,
      file.rowsOverpaying > 0 &&
        `${file.rowsOverpaying === 1 ? '1 fila liquida su crédito' : `${file.rowsOverpaying.toLocaleString('es-MX')} filas liquidan su crédito`} con sobrepago: lo que sobra queda como saldo a favor.`,
      file.rowsPaidElsewhere > 0 &&
        (file.rowsPaidElsewhere === 1
          ? '1 fila paga un descuento que otro archivo ya recibió: se aplica como pago adicional.'
          : `${file.rowsPaidElsewhere.toLocaleString('es-MX')} filas pagan descuentos que otro archivo ya recibió: se aplican como pagos adicionales.`),
      file.rowsRejected > 0 &&
        (file.rowsRejected === 1
          ? 'La fila rechazada no se aplica.'
          : `Las ${file.rowsRejected.toLocaleString('es-MX')} filas rechazadas no se aplican.`),
      '¿Aplicar el archivo?',
    ];
    const yes = await confirm({ title: 'Aplicar archivo', message: message.filter(Boolean).join(' ') });
    if (!yes) return;
    setFailure(null);
    try {
      await apply.mutateAsync();
    } catch (error) {
      setFailure((error as Error).message);
    }
  };

  const decide = async (action: 'reject' | 'revert', reason: string) => {
    setDialogFailure(null);
    try {
      await (action === 'reject' ? reject : revert).mutateAsync(reason);
      setAsking(null);
    } catch (error) {
      setDialogFailure((error as Error).message);
    }
  };

  const ask = (action: 'reject' | 'revert') => {
    setDialogFailure(null);
    setAsking(action);
  };

  return (
    <Stack spacing={2}>
      <ApplyState file={file} detailLink={detailLink} />
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      {(canApply || canReject || canRevert) && (
        <Stack direction="row" spacing={1} useFlexGap role="group" aria-label="Acciones del archivo" sx={{ flexWrap: 'wrap' }}>
          {canApply && (
            <Button variant="contained" onClick={() => void startApply()} disabled={apply.isPending}>
              Aplicar
            </Button>
          )}
          {canReject && (
            <Button color="error" onClick={() => ask('reject')}>
              Rechazar archivo
            </Button>
          )}
          {canRevert && (
            <Button variant="outlined" color="error" onClick={() => ask('revert')}>
              Revertir
            </Button>
          )}
        </Stack>
      )}
      {asking === 'reject' && (
        <ReasonDialog
          title={`Rechazar archivo ${file.fileName}`}
          message="El archivo no se aplicará; se conserva con sus filas y el motivo, y podrá cargarse de nuevo."
          confirmLabel="Rechazar archivo"
          busy={reject.isPending}
          failure={dialogFailure}
          onClose={() => setAsking(null)}
          onConfirm={(reason) => void decide('reject', reason)}
        />
      )}
      {asking === 'revert' && (
        <RevertDialog
          file={file}
          busy={revert.isPending}
          failure={dialogFailure}
          onClose={() => setAsking(null)}
          onConfirm={(reason) => void decide('revert', reason)}
        />
      )}
    </Stack>
  );
}
