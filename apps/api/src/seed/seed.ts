import { count } from 'drizzle-orm';
import { ALL_PERMISSION_PATHS, groupPermissionPaths, type PermissionPath } from '@portal/contract';
import type { Db } from '../db/client';
import { asSystem } from '../db/scope';
import { auditEvents } from '../db/schema/audit';
import { companies, profiles, users } from '../db/schema/users';
import { hashPassword } from '../idp/passwords';
import { seedDemoAgreements } from './seed-agreements';
import { seedLetterTemplates } from './seed-letters';

export interface DemoAccount {
  email: string;
  password: string;
  profile: string;
  /** The company's code; Financiera Demo's when absent. */
  company?: 'DEMO' | 'PLUS';
}

/** Demo sign-ins printed at start (and in the README). Change them with the forgot-password flow. */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'admin@demo.mx', password: 'Administrador2026', profile: 'Administrador' },
  { email: 'originacion@demo.mx', password: 'Originacion2026', profile: 'Originación' },
  { email: 'cartera@demo.mx', password: 'Cartera2026', profile: 'Cartera' },
  { email: 'mesa@demo.mx', password: 'MesaControl2026', profile: 'Mesa de control' },
  { email: 'tesoreria@demo.mx', password: 'Tesoreria2026', profile: 'Tesorería' },
  { email: 'sinpermisos@demo.mx', password: 'SinPermisos2026', profile: 'Sin permisos' },
  // The second company's staff: sees only Crédito Nómina Plus's agreements, requests, credits and users.
  { email: 'plus@demo.mx', password: 'NominaPlus2026', profile: 'Operación', company: 'PLUS' },
];

export const DEMO_PROFILES = [
  { name: 'Administrador', roleCode: 'SA', permissions: [...ALL_PERMISSION_PATHS] },
  { name: 'Originación', roleCode: 'ORIGINACION', permissions: groupPermissionPaths('origination') },
  {
    name: 'Cartera',
    roleCode: 'CARTERA',
    permissions: [
      ...groupPermissionPaths('wallet'),
      '/creditos/update-labels',
      '/creditos/settlement-letter',
      '/actions/credit-tools/issue-letter',
    ] satisfies PermissionPath[],
  },
  // The second person of the two-person rule: validates and approves (or rejects) what Originación captured.
  {
    name: 'Mesa de control',
    roleCode: 'MESA',
    permissions: ['/origination/request-list', '/actions/origination/approve', '/wallet/credits/credits-list'] satisfies PermissionPath[],
  },
  // The third person (maker-checker on money leaving): disburses what someone else captured and someone else approved.
  {
    name: 'Tesorería',
    roleCode: 'TESORERIA',
    permissions: [
      '/origination/request-list',
      '/actions/origination/disburse',
      '/wallet/credits/credits-list',
      // Tesorería (issue 47): batches of payment orders, and the approval of refunds Cartera requests.
      ...groupPermissionPaths('treasury'),
      '/wallet/refunds',
      '/actions/wallet/approve-refund',
    ] satisfies PermissionPath[],
  },
  // A company's own operation, not role SA: row-level security keeps it within its company.
  {
    name: 'Operación',
    roleCode: 'OPERACION',
    permissions: [
      ...groupPermissionPaths('origination'),
      '/wallet/credits/credits-list',
      '/catalog/contract-list',
      '/user/user-list',
    ] satisfies PermissionPath[],
  },
  // Shows what a user whose profile grants nothing sees at sign-in: "El usuario no tiene permisos".
  { name: 'Sin permisos', roleCode: 'CONSULTA', permissions: [] },
];

/** True when the database holds no company yet: the first start of a fresh data folder. */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await asSystem(db, (tx) => tx.select({ total: count() }).from(companies));
  return (row?.total ?? 0) === 0;
}

/**
 * Seeds the demo company, its profiles and one user per profile, in one transaction. `hash` makes the users' password
 * hashes, the portal's scrypt unless given: the API tests' template stores cheaper ones (src/test/global-setup.ts).
 */
export async function seedDemo(db: Db, hash: (password: string) => Promise<string> = hashPassword): Promise<void> {
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((account) => hash(account.password)));
  await asSystem(db, async (tx) => {
    const [company] = await tx
      .insert(companies)
      .values({ code: 'DEMO', name: 'Financiera Demo', legalName: 'Financiera Demo, S.A. de C.V., SOFOM, E.N.R.', rfc: 'FDE150101AB1' })
      .returning();
    const [secondBrand] = await tx
      .insert(companies)
      .values({
        code: 'PLUS',
        name: 'Crédito Nómina Plus',
        legalName: 'Crédito Nómina Plus, S.A.P.I. de C.V., SOFOM, E.N.R.',
        rfc: 'CNP180612KQ4',
      })
      .returning();
    await seedDemoAgreements(tx, [company!.id, secondBrand!.id]);
    await seedLetterTemplates(tx, new Date());
    const createdProfiles = await tx.insert(profiles).values(DEMO_PROFILES).returning();
    const profileId = (name: string) => createdProfiles.find((profile) => profile.name === name)!.id;
    const createdUsers = await tx
      .insert(users)
      .values(
        DEMO_ACCOUNTS.map((account, index) => ({
          email: account.email,
          name: `Demo ${account.profile}`,
          profileId: profileId(account.profile),
          companyId: account.company === 'PLUS' ? secondBrand!.id : company!.id,
          passwordHash: hashes[index]!,
        })),
      )
      .returning({ id: users.id, email: users.email });
    await tx.insert(auditEvents).values({
      action: 'seed',
      entity: 'company',
      entityId: company!.id,
      after: { company: company!.code, profiles: createdProfiles.length, users: createdUsers.map((user) => user.email) },
    });
  });
}

/**
 * Production bootstrap: on an empty database, one administrator (with an external provider, the e-mail its
 * tokens carry) so that someone can sign in and create everyone else.
 */
export async function seedBootstrapAdmin(db: Db, email: string): Promise<void> {
  await asSystem(db, async (tx) => {
    const [company] = await tx
      .insert(companies)
      .values({ code: 'PRINCIPAL', name: 'Empresa principal', legalName: 'Empresa principal', rfc: 'XAXX010101000' })
      .returning();
    const [profile] = await tx.insert(profiles).values(DEMO_PROFILES[0]!).returning();
    const [user] = await tx.insert(users).values({ email, name: null, profileId: profile!.id, companyId: company!.id }).returning();
    await tx.insert(auditEvents).values({ action: 'bootstrap', entity: 'user', entityId: user!.id, after: { email } });
  });
}
