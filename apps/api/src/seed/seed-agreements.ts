import type { AgreementValues } from '@portal/contract';
import type { Tx } from '../db/client';
import { agreementProducts, agreements } from '../db/schema/agreements';
import { productRows } from '../modules/shared/products';

type DemoAgreement = Omit<AgreementValues, 'companyId'> & { brand: 0 | 1 };

/** Three agreements across sectors and frequencies, on two brands, so later screens have real-looking data. */
export const DEMO_AGREEMENTS: DemoAgreement[] = [
  {
    brand: 0,
    code: 'GOB-JAL',
    name: 'Gobierno del Estado de Jalisco — burocracia',
    employerName: 'Secretaría de la Hacienda Pública del Estado de Jalisco',
    employerRfc: 'SPF130103BF7',
    sector: 'estatal',
    frequency: 'quincenal',
    maxDeductionPct: '30',
    remittanceLagDays: 10,
    payDay: null,
    paydayWeekday: null,
    cutOffLeadDays: 5,
    nonWorkingDays: [],
    renewalAsChange: false,
    validFrom: '2025-01-01',
    validTo: null,
    contacts: [{ name: 'Laura Méndez (nóminas)', email: 'nominas@jalisco.example.mx', phone: '33 3030 1000' }],
    products: [
      {
        name: 'Nómina Jalisco 24',
        annualRatePct: '36',
        ivaRatePct: '16',
        openingFeePct: '2',
        openingFeeFinanced: false,
        terms: [12, 24, 36, 48],
        minAmount: '3000.00',
        maxAmount: '150000.00',
        maxAgeAtEnd: 75,
        moratoryRatePct: '54',
        lateFee: '150.00',
        renewalMinPaid: 3,
        renewalMaxDaysPastDue: 0,
        active: true,
      },
    ],
    layout: {
      format: 'csv',
      delimiter: ',',
      hasHeader: true,
      amountInCents: false,
      columns: { employeeNumber: 1, curpRfc: 2, amount: 3, period: 4, reference: 5 },
    },
    active: true,
  },
  {
    brand: 0,
    code: 'IMSS-FED',
    name: 'Trabajadores federales — delegación Bajío',
    employerName: 'Instituto Mexicano del Seguro Social',
    employerRfc: 'IMS421231I45',
    sector: 'federal',
    frequency: 'catorcenal',
    maxDeductionPct: '40',
    remittanceLagDays: 15,
    payDay: null,
    paydayWeekday: 5,
    cutOffLeadDays: 7,
    nonWorkingDays: [],
    renewalAsChange: false,
    validFrom: '2024-07-01',
    validTo: '2027-06-30',
    contacts: [],
    products: [
      {
        name: 'Federal 26',
        annualRatePct: '32.5',
        ivaRatePct: '16',
        openingFeePct: '1.5',
        openingFeeFinanced: true,
        terms: [26, 52, 78],
        minAmount: '5000.00',
        maxAmount: '250000.00',
        maxAgeAtEnd: 78,
        moratoryRatePct: '48.75',
        lateFee: '0.00',
        renewalMinPaid: 3,
        renewalMaxDaysPastDue: 15,
        active: true,
      },
      {
        name: 'Federal Express',
        annualRatePct: '42',
        ivaRatePct: '16',
        openingFeePct: '0',
        openingFeeFinanced: false,
        terms: [13, 26],
        minAmount: '2000.00',
        maxAmount: '40000.00',
        maxAgeAtEnd: 75,
        moratoryRatePct: '63',
        lateFee: '100.00',
        renewalMinPaid: 3,
        renewalMaxDaysPastDue: 0,
        active: true,
      },
    ],
    layout: {
      format: 'fixed',
      amountInCents: true,
      positions: {
        creditId: { start: 1, length: 10 },
        curpRfc: { start: 11, length: 18 },
        amount: { start: 29, length: 12 },
        period: { start: 41, length: 6 },
      },
    },
    active: true,
  },
  {
    brand: 1,
    code: 'ACME-PRIV',
    name: 'Grupo Industrial ACME — planta Monterrey',
    employerName: 'Grupo Industrial Acme, S.A. de C.V.',
    employerRfc: 'GIA0405127T3',
    sector: 'privado',
    frequency: 'mensual',
    maxDeductionPct: '25',
    remittanceLagDays: 5,
    payDay: 31,
    paydayWeekday: null,
    cutOffLeadDays: 10,
    nonWorkingDays: [],
    renewalAsChange: false,
    validFrom: '2025-03-01',
    validTo: null,
    contacts: [{ name: 'Jorge Treviño (RH)', email: 'rh@acme.example.mx', phone: '81 8000 2000' }],
    products: [
      {
        name: 'ACME Mensual',
        annualRatePct: '29.9',
        ivaRatePct: '16',
        openingFeePct: '1',
        openingFeeFinanced: true,
        terms: [6, 12, 18, 24],
        minAmount: '2000.00',
        maxAmount: '80000.00',
        maxAgeAtEnd: 70,
        moratoryRatePct: '44.85',
        lateFee: '200.00',
        renewalMinPaid: 3,
        renewalMaxDaysPastDue: 15,
        active: true,
      },
    ],
    layout: {
      format: 'xlsx',
      sheet: 'Descuentos',
      hasHeader: true,
      amountInCents: false,
      columns: { creditId: 1, employeeNumber: 2, amount: 4, period: 5 },
    },
    active: true,
  },
];

export async function seedDemoAgreements(tx: Tx, companyIds: [string, string]): Promise<void> {
  for (const { brand, ...agreement } of DEMO_AGREEMENTS) {
    const { products, ...fields } = agreement;
    const [created] = await tx
      .insert(agreements)
      .values({ ...fields, companyId: companyIds[brand] })
      .returning({ id: agreements.id });
    await tx.insert(agreementProducts).values(productRows({ id: created!.id, companyId: companyIds[brand] }, products));
  }
}
