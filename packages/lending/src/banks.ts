/**
 * Banxico SPEI participants, keyed by the 3-digit code that opens a CLABE.
 *
 * Snapshot of Banco de México's participant list (https://www.banxico.org.mx/cep-scl/listaInstituciones.do)
 * as mirrored in 2025 by the open-source `cuenca-mx/clabe-python` catalogue. The 5-digit value is the
 * SPEI institution code (40xxx banca múltiple, 37xxx banca de desarrollo, 90xxx other participants).
 * Codes of institutions that left SPEI (e.g. 032 IXE, merged into Banorte) are deliberately absent: a
 * CLABE that starts with them cannot receive a disbursement today. Update this table when Banxico
 * admits or removes a participant; `banks.test.ts` guards its shape.
 */
export interface BankParticipant {
  readonly code: string;
  readonly speiCode: string;
  readonly name: string;
  /** False for institutions that keep no client accounts (central bank, settlement and custody systems). */
  readonly clientAccounts: boolean;
}

/**
 * Participants that settle between institutions but hold no account a borrower could own: Banxico (001),
 * CLS (901), Indeval (902) and CoDi Valida (903). Their CLABEs exist; a disbursement to a client cannot go there.
 */
const NON_CLIENT_INSTITUTIONS: ReadonlySet<string> = new Set(['001', '901', '902', '903']);

const PARTICIPANTS: ReadonlyArray<readonly [code: string, speiCode: string, name: string]> = [
  ['001', '2001', 'Banxico'],
  ['002', '40002', 'Banamex'],
  ['006', '37006', 'Bancomext'],
  ['009', '37009', 'Banobras'],
  ['012', '40012', 'BBVA México'],
  ['014', '40014', 'Santander'],
  ['019', '37019', 'Banjército'],
  ['021', '40021', 'HSBC'],
  ['030', '40030', 'Bajío'],
  ['036', '40036', 'Inbursa'],
  ['042', '40042', 'Mifel'],
  ['044', '40044', 'Scotiabank'],
  ['058', '40058', 'Banregio'],
  ['059', '40059', 'Invex'],
  ['060', '40060', 'Bansi'],
  ['062', '40062', 'Afirme'],
  ['072', '40072', 'Banorte'],
  ['106', '40106', 'Bank of America'],
  ['108', '40108', 'MUFG'],
  ['110', '40110', 'JP Morgan'],
  ['112', '40112', 'Bmonex'],
  ['113', '40113', 'Ve por Más'],
  ['124', '40124', 'Citi México'],
  ['127', '40127', 'Azteca'],
  ['128', '40128', 'Kapital'],
  ['129', '40129', 'Barclays'],
  ['130', '40130', 'Compartamos'],
  ['132', '40132', 'Multiva Banco'],
  ['133', '40133', 'Actinver'],
  ['135', '37135', 'Nafin'],
  ['136', '40136', 'Intercam Banco'],
  ['137', '40137', 'BanCoppel'],
  ['138', '40138', 'Ualá'],
  ['140', '40140', 'Consubanco'],
  ['141', '40141', 'Volkswagen'],
  ['143', '40143', 'CIBanco'],
  ['145', '40145', 'Banco Base'],
  ['147', '40147', 'Bankaool'],
  ['148', '40148', 'PagaTodo'],
  ['150', '40150', 'Inmobiliario'],
  ['151', '40151', 'Dondé'],
  ['152', '40152', 'Bancrea'],
  ['154', '40154', 'Banco Covalto'],
  ['155', '40155', 'ICBC'],
  ['156', '40156', 'Sabadell'],
  ['157', '40157', 'Shinhan'],
  ['158', '40158', 'Mizuho Bank'],
  ['159', '40159', 'Bank of China'],
  ['160', '40160', 'Banco S3'],
  ['166', '37166', 'Banco del Bienestar'],
  ['167', '40167', 'Hey Banco'],
  ['168', '37168', 'Hipotecaria Federal'],
  ['170', '40170', 'Revolut Bank'],
  ['600', '90600', 'Monex CB'],
  ['601', '90601', 'GBM'],
  ['602', '90602', 'Masari'],
  ['605', '90605', 'Value'],
  ['616', '90616', 'Finamex'],
  ['617', '90617', 'Valmex'],
  ['620', '90620', 'Profuturo'],
  ['630', '90630', 'CB Intercam'],
  ['631', '90631', 'CI Bolsa'],
  ['634', '90634', 'Fincomún'],
  ['638', '40638', 'Nu México'],
  ['646', '90646', 'STP'],
  ['652', '90652', 'Credicapital'],
  ['653', '90653', 'Kuspit'],
  ['656', '90656', 'Unagra'],
  ['659', '90659', 'ASP Integra OPC'],
  ['660', '90660', 'Altor'],
  ['661', '90661', 'Klar'],
  ['670', '90670', 'Libertad'],
  ['677', '90677', 'Caja Popular Mexicana'],
  ['680', '90680', 'Cristóbal Colón'],
  ['683', '90683', 'Caja Telefonistas'],
  ['684', '90684', 'Transfer'],
  ['685', '90685', 'Fondo (FIRA)'],
  ['688', '90688', 'Crediclub'],
  ['689', '90689', 'Fomped'],
  ['699', '90699', 'Fondeadora'],
  ['703', '90703', 'Tesored'],
  ['706', '90706', 'Arcus Fi'],
  ['710', '90710', 'NVIO'],
  ['714', '90714', 'PPBalanceMX'],
  ['715', '90715', 'Cashi Cuenta'],
  ['720', '90720', 'MexPago'],
  ['721', '90721', 'Albo'],
  ['722', '90722', 'Mercado Pago'],
  ['723', '90723', 'Cuenca'],
  ['725', '90725', 'Coopdesarrollo'],
  ['727', '90727', 'Transfer Directo'],
  ['728', '90728', 'Spin by OXXO'],
  ['729', '90729', 'Depósitos y Pagos Digitales'],
  ['730', '90730', 'Clip'],
  ['732', '90732', 'Peibo'],
  ['734', '90734', 'Finco Pay'],
  ['738', '90738', 'Fintoc'],
  ['901', '90901', 'CLS'],
  ['902', '90902', 'Indeval'],
  ['903', '90903', 'CoDi Valida'],
];

export const BANXICO_PARTICIPANTS: ReadonlyMap<string, BankParticipant> = new Map(
  PARTICIPANTS.map(([code, speiCode, name]) => [code, { code, speiCode, name, clientAccounts: !NON_CLIENT_INSTITUTIONS.has(code) }]),
);

/** The participant a CLABE's first three digits name, or `undefined` when Banxico lists none. */
export function bankForCode(code: string): BankParticipant | undefined {
  return BANXICO_PARTICIPANTS.get(code);
}
