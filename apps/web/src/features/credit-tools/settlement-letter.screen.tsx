import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import { LETTER_FIELDS, LETTER_LAYOUT_MAX_BYTES, LETTER_TEMPLATE_MAX_BYTES, type LetterQuote, type LetterSummary } from '@portal/contract';
import { useConfirm } from '../../components/confirm-dialog';
import { DateField } from '../../components/date-field';
import { DetailList } from '../../components/detail-list';
import { downloadLetter, LettersTable } from '../../components/letters-table';
import { Section } from '../../components/section';
import { StatusChip } from '../../components/status-chip';
import { ApiError } from '../../lib/api';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { formatBytes, formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { useCreditLetters } from '../../lib/credit-letters';
import { useCreditSearch, useIssueLetter, useLetterPdf, useLetterQuote, useLetterTemplates, useUploadTemplate } from './letters.queries';
import { ScrollTable } from '../../components/scroll-table';

/**
 * Créditos → Carta de Liquidación Anticipada: find a credit, choose the letter's validity, read the payoff with every
 * component (DOMAIN 3), generate the letter (a PDF on the brand's newest template), preview and download it; the
 * credit's letters; and, for administrators, a new version of a brand's template.
 */
export default function SettlementLetterScreen() {
  const session = useSession();
  const [creditId, setCreditId] = useState<string | null>(null);
  const canUpload = hasPermission(session, '/actions/credit-tools/upload-letter-template');
  return (
    <>
      <Typography variant="h1" component="h1" sx={{ mb: 3 }}>
        Carta de Liquidación Anticipada
      </Typography>
      <Section title="Buscar crédito">
        <CreditSearch selected={creditId} onSelect={setCreditId} />
      </Section>
      {creditId && (
        <CreditLetter key={creditId} creditId={creditId} canIssue={hasPermission(session, '/actions/credit-tools/issue-letter')} />
      )}
      {canUpload && (
        <Section title="Plantillas de carta">
          <Templates />
        </Section>
      )}
    </>
  );
}

function CreditSearch({ selected, onSelect }: { selected: string | null; onSelect: (id: string) => void }) {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const search = useCreditSearch(q);
  // One match is the credit asked for: it is picked, without an extra "Elegir".
  const onlyMatch = search.data?.items.length === 1 ? search.data.items[0]!.id : null;
  useEffect(() => {
    if (onlyMatch) onSelect(onlyMatch);
  }, [onlyMatch, onSelect]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQ(text.trim());
  };
  return (
    <Stack spacing={2}>
      <Stack
        component="form"
        direction="row"
        spacing={1}
        onSubmit={submit}
        role="search"
        aria-label="Buscar crédito"
        sx={{ maxWidth: 640 }}
      >
        <TextField label="Folio, CURP o nombre" value={text} onChange={(event) => setText(event.target.value)} size="small" fullWidth />
        <Button type="submit" variant="outlined" startIcon={<SearchOutlined />}>
          Buscar
        </Button>
      </Stack>
      {search.isError && <Alert severity="error">{search.error.message}</Alert>}
      {search.isFetching && <Typography color="text.secondary">Buscando…</Typography>}
      {search.data && search.data.items.length === 0 && <Typography color="text.secondary">Ningún crédito coincide con «{q}».</Typography>}
      {search.data && search.data.items.length > 0 && (
        <ScrollTable label="Créditos encontrados">
          <TableHead>
            <TableRow>
              <TableCell>Folio</TableCell>
              <TableCell>Cliente</TableCell>
              <TableCell>CURP</TableCell>
              <TableCell>Convenio</TableCell>
              <TableCell align="right">Saldo</TableCell>
              <TableCell>Estado</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {search.data.items.map((credit) => (
              <TableRow key={credit.id} selected={credit.id === selected}>
                <TableCell>{credit.folio}</TableCell>
                <TableCell>{credit.clientName}</TableCell>
                <TableCell>{credit.curp}</TableCell>
                <TableCell>{credit.agreement}</TableCell>
                <TableCell align="right">{formatMoney(credit.outstandingBalance)}</TableCell>
                <TableCell>
                  <StatusChip status={credit.status} />
                </TableCell>
                <TableCell>
                  <Button
                    size="small"
                    onClick={() => onSelect(credit.id)}
                    aria-label={`Elegir ${credit.folio}`}
                    disabled={credit.id === selected}
                  >
                    {credit.id === selected ? 'Elegido' : 'Elegir'}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </ScrollTable>
      )}
    </Stack>
  );
}

/** Every component of the payoff at the validity date, as the letter will print it. */
function QuoteDetails({ quote }: { quote: LetterQuote }) {
  const p = quote.payoff;
  const plus = (amount: string, iva: string) => `${formatMoney(amount)} + IVA ${formatMoney(iva)}`;
  return (
    <DetailList
      aria-label="Liquidación a la vigencia"
      items={[
        { label: 'Cliente', value: `${quote.clientName} · ${quote.curp}` },
        { label: 'Convenio', value: `${quote.agreement} · ${quote.company}` },
        { label: 'Monto del crédito', value: formatMoney(p.creditAmount) },
        { label: 'Plazo y pagos realizados', value: `${p.paymentsMade} de ${p.term} pagos · descuento ${formatMoney(p.installment)}` },
        { label: 'Fecha flujo (cotización)', value: formatDate(p.quoteDate) },
        { label: 'Capital insoluto', value: formatMoney(p.outstandingPrincipal) },
        { label: 'Interés vencido', value: plus(p.dueInterest, p.dueIva) },
        { label: 'Comisiones', value: plus(p.dueFees, p.dueFeesIva) },
        { label: 'Moratorios', value: plus(p.dueMoratoryInterest, p.dueMoratoryIva) },
        { label: 'Interés del periodo a la vigencia', value: plus(p.accruedInterest, p.accruedIva) },
        { label: 'Saldo a la vigencia', value: formatMoney(p.grossBalance) },
        {
          label: 'En tránsito',
          value: `− ${formatMoney(p.inTransit)}${p.inTransitCount > 0 ? ` (${p.inTransitCount} ${p.inTransitCount === 1 ? 'descuento' : 'descuentos'} sin remitir)` : ''}`,
        },
        { label: 'Saldo final', value: formatMoney(p.finalBalance) },
        {
          label: 'Descuento dentro de la vigencia',
          value: p.discountDate
            ? `− ${formatMoney(p.pendingDeduction)} (${p.pendingDeductions.map((d) => formatDate(d.discountDate)).join(', ')})`
            : 'Ninguno',
        },
        { label: 'Importe total a liquidar', value: formatMoney(p.totalAmount) },
        {
          label: 'Plantilla',
          value: quote.template ? `${quote.company}, versión ${quote.template.version}` : 'Sin plantilla: un administrador debe subir una.',
        },
      ]}
    />
  );
}

function CreditLetter({ creditId, canIssue }: { creditId: string; canIssue: boolean }) {
  const [validUntil, setValidUntil] = useState('');
  const quote = useLetterQuote(creditId, validUntil);
  const issue = useIssueLetter(creditId);
  const confirm = useConfirm();
  const [shown, setShown] = useState<LetterSummary | null>(null);

  // The date field starts at the company's default validity, once the first quote tells it.
  useEffect(() => {
    if (validUntil === '' && quote.data) setValidUntil(quote.data.defaultValidUntil);
  }, [quote.data, validUntil]);

  const generate = async () => {
    if (!quote.data) return;
    const ok = await confirm({
      title: 'Generar carta',
      message: `Se emitirá la carta de liquidación del crédito ${quote.data.folio} por ${formatMoney(quote.data.payoff.totalAmount)}, vigente hasta el ${formatDate(quote.data.payoff.validUntil)}. ¿Continuar?`,
    });
    if (!ok) return;
    const letter = await issue.mutateAsync(quote.data.payoff.validUntil).catch(() => null);
    if (letter) setShown(letter);
  };

  return (
    <>
      <Section title={quote.data ? `Liquidación del crédito ${quote.data.folio}` : 'Liquidación del crédito'}>
        <Stack spacing={2}>
          <DateField
            label="Vigencia de la carta"
            value={validUntil}
            onChange={setValidUntil}
            min={quote.data?.businessDate}
            helperText={
              quote.data
                ? `Por omisión, ${quote.data.validityBusinessDays} días hábiles después de la fecha flujo (${formatDate(quote.data.defaultValidUntil)}).`
                : undefined
            }
            sx={{ maxWidth: 260 }}
          />
          {quote.isError && <Alert severity="error">{quote.error.message}</Alert>}
          {quote.isPending && <Typography color="text.secondary">Calculando la liquidación…</Typography>}
          {quote.data && <QuoteDetails quote={quote.data} />}
          {canIssue && (
            <Box>
              <Button
                variant="contained"
                onClick={generate}
                disabled={!quote.data || quote.isFetching || issue.isPending || !quote.data.template}
              >
                {issue.isPending ? 'Generando…' : 'Generar carta'}
              </Button>
            </Box>
          )}
          {issue.isError && <Alert severity="error">{issue.error.message}</Alert>}
        </Stack>
      </Section>
      {shown && (
        <Section title="Carta generada">
          <LetterPreview letter={shown} />
        </Section>
      )}
      <Section title="Cartas emitidas del crédito">
        <CreditLetters creditId={creditId} onShow={setShown} shown={shown?.id ?? null} />
      </Section>
    </>
  );
}

/** The stored PDF in the page (a frame on a blob: URL; the API's CSP allows frames from blob: and nothing else new). */
function LetterPreview({ letter }: { letter: LetterSummary }) {
  const pdf = useLetterPdf(letter.id);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!pdf.data) return;
    const next = URL.createObjectURL(pdf.data.type === 'application/pdf' ? pdf.data : new Blob([pdf.data], { type: 'application/pdf' }));
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [pdf.data]);
  return (
    <Stack spacing={2}>
      <Typography>
        Referencia <strong>{letter.reference}</strong> · importe total{' '}
        <strong aria-label="Importe de la carta">{formatMoney(letter.totalAmount)}</strong> · vigente hasta el{' '}
        {formatDate(letter.validUntil)} · plantilla {letter.brand} v{letter.templateVersion}
      </Typography>
      <Box>
        <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={() => void downloadLetter(letter)}>
          Descargar PDF
        </Button>
      </Box>
      {pdf.isError && <Alert severity="error">{pdf.error.message}</Alert>}
      {url ? (
        <Box
          component="iframe"
          src={url}
          title="Vista previa de la carta"
          sx={{ width: '100%', height: '80vh', border: 1, borderColor: 'divider' }}
        />
      ) : (
        <Typography color="text.secondary">Cargando la vista previa…</Typography>
      )}
    </Stack>
  );
}

function CreditLetters({ creditId, onShow, shown }: { creditId: string; onShow: (letter: LetterSummary) => void; shown: string | null }) {
  const letters = useCreditLetters(creditId);
  if (letters.isError) return <Alert severity="error">{letters.error.message}</Alert>;
  if (!letters.data) return <Typography color="text.secondary">Cargando cartas…</Typography>;
  return <LettersTable letters={letters.data.items} label="Cartas del crédito" onShow={onShow} shown={shown} />;
}

/** The brands' template versions and the upload of a new one (PDF background + layout JSON), with the API's reasons. */
function Templates() {
  const templates = useLetterTemplates(true);
  const uploadTemplate = useUploadTemplate();
  const [companyId, setCompanyId] = useState('');
  const [background, setBackground] = useState<File | null>(null);
  const [layout, setLayout] = useState<File | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const brands = templates.data?.items ?? [];
  const brand = companyId || brands[0]?.companyId || '';
  const problems = uploadTemplate.error instanceof ApiError ? uploadTemplate.error.fieldErrors : [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!background || !layout || !brand) return;
    setDone(null);
    const result = await uploadTemplate.mutateAsync({ companyId: brand, background, layout }).catch(() => null);
    if (result)
      setDone(
        `${result.company}: versión ${result.versions[0]?.version ?? ''} guardada. Las cartas nuevas la usan; las anteriores conservan la suya.`,
      );
  };

  if (templates.isError) return <Alert severity="error">{templates.error.message}</Alert>;
  return (
    <Stack spacing={3}>
      {brands.map((entry) => (
        <Box key={entry.companyId}>
          <Typography variant="h3" component="h3" sx={{ fontSize: '1.05rem', mb: 1 }}>
            {entry.company} · vigencia por omisión {entry.validityBusinessDays} días hábiles
          </Typography>
          {entry.versions.length === 0 ? (
            <Typography color="text.secondary">Sin plantilla.</Typography>
          ) : (
            <ScrollTable label={`Versiones de ${entry.company}`}>
              <TableHead>
                <TableRow>
                  <TableCell>Versión</TableCell>
                  <TableCell>Archivo</TableCell>
                  <TableCell>Página</TableCell>
                  <TableCell>Subió</TableCell>
                  <TableCell align="right">Cartas</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {entry.versions.map((version, index) => (
                  <TableRow key={version.id}>
                    <TableCell>
                      {version.version}
                      {index === 0 ? ' (vigente)' : ''}
                    </TableCell>
                    <TableCell>
                      {version.fileName} · {formatBytes(version.size)}
                    </TableCell>
                    <TableCell>
                      {Math.round(version.pageWidth)} × {Math.round(version.pageHeight)} pt
                    </TableCell>
                    <TableCell>
                      {version.uploadedBy ?? 'Sistema'} · {formatDateTime(version.uploadedAt)}
                    </TableCell>
                    <TableCell align="right">{version.letters}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </ScrollTable>
          )}
        </Box>
      ))}
      <Stack component="form" spacing={2} onSubmit={submit} aria-label="Subir una versión de plantilla" sx={{ maxWidth: 560 }}>
        <Typography variant="h3" component="h3" sx={{ fontSize: '1.05rem' }}>
          Subir una nueva versión
        </Typography>
        <Typography color="text.secondary" variant="body2">
          El fondo es un PDF (hasta {formatBytes(LETTER_TEMPLATE_MAX_BYTES)}; se usa su primera página). El layout es un JSON (hasta{' '}
          {formatBytes(LETTER_LAYOUT_MAX_BYTES)}) con{' '}
          <code>{'{"fields": {"cliente": {"x": 160, "y": 620, "size": 10, "align": "left"}, …}}'}</code>, en puntos desde la esquina
          inferior izquierda, con todos los campos: {LETTER_FIELDS.join(', ')}.
        </Typography>
        <TextField select label="Marca" value={brand} onChange={(event) => setCompanyId(event.target.value)} size="small">
          {brands.map((entry) => (
            <MenuItem key={entry.companyId} value={entry.companyId}>
              {entry.company}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" component="label">
          {background ? `Fondo: ${background.name}` : 'Elegir PDF de fondo'}
          <input
            hidden
            type="file"
            accept="application/pdf,.pdf"
            aria-label="PDF de fondo"
            onChange={(event) => setBackground(event.target.files?.[0] ?? null)}
          />
        </Button>
        <Button variant="outlined" component="label">
          {layout ? `Layout: ${layout.name}` : 'Elegir layout (JSON)'}
          <input
            hidden
            type="file"
            accept="application/json,.json"
            aria-label="Layout JSON"
            onChange={(event) => setLayout(event.target.files?.[0] ?? null)}
          />
        </Button>
        <Box>
          <Button type="submit" variant="contained" disabled={!background || !layout || !brand || uploadTemplate.isPending}>
            {uploadTemplate.isPending ? 'Subiendo…' : 'Subir versión'}
          </Button>
        </Box>
        {uploadTemplate.isError && (
          <Alert severity="error" role="alert">
            {problems.length > 0 ? (
              <>
                La plantilla no es válida:
                <ul aria-label="Problemas de la plantilla">
                  {problems.map((problem) => (
                    <li key={`${problem.field}-${problem.message}`}>{problem.message}</li>
                  ))}
                </ul>
              </>
            ) : (
              uploadTemplate.error.message
            )}
          </Alert>
        )}
        {done && <Alert severity="success">{done}</Alert>}
      </Stack>
    </Stack>
  );
}
