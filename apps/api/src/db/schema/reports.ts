import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import {
  REPORT_DATASET_KEYS,
  REPORT_FORMATS,
  REPORT_RUN_STATUSES,
  type ReportFilter,
  type ReportParameter,
  type ReportSort,
} from '@portal/contract';
import { bytea, createdAt, instant, updatedAt } from './columns';
import { companyRef, userRef } from './users';

/**
 * Reportes operativos (issue 18): definitions over the code's dataset catalogue, their runs (background jobs) and the
 * files the runs wrote, kept in the database in chunks (decision 0009) so that any API process serves a download.
 */

/** A report definition: dataset, columns in order, run-time filters, sort, format and the profiles that may run it. */
export const reportDefinitions = pgTable(
  'report_definitions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    dataset: text('dataset', { enum: REPORT_DATASET_KEYS }).notNull(),
    columns: jsonb('columns').$type<string[]>().notNull(),
    filters: jsonb('filters').$type<ReportFilter[]>().notNull(),
    sort: jsonb('sort').$type<ReportSort | null>(),
    format: text('format', { enum: REPORT_FORMATS }).notNull(),
    /** Profiles (global catalogue) whose users may run it; a run checks the runner's profile against this list. */
    profileIds: uuid('profile_ids').array().notNull(),
    active: boolean('active').notNull().default(true),
    version: integer('version').notNull().default(1),
    createdBy: userRef('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('report_definitions_company_idx').on(table.companyId, table.name)],
);

/**
 * One run of a definition: the definition as it was (a later edit does not change what a run meant), the parameters,
 * progress and outcome, and how long its file is kept.
 */
export const reportRuns = pgTable(
  'report_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    definitionId: uuid('definition_id')
      .notNull()
      .references(() => reportDefinitions.id),
    definitionVersion: integer('definition_version').notNull(),
    /** name, dataset, columns, filters, sort, format at the moment of the run. */
    definition: jsonb('definition').notNull(),
    parameters: jsonb('parameters').$type<Record<string, ReportParameter>>().notNull(),
    status: text('status', { enum: REPORT_RUN_STATUSES }).notNull().default('en espera'),
    rowsTotal: integer('rows_total'),
    rowsDone: integer('rows_done').notNull().default(0),
    /** How many times the work was started: more than one after a transient failure was retried (jobs/tracked-job.ts). */
    attempts: integer('attempts').notNull().default(0),
    fileName: text('file_name'),
    contentType: text('content_type'),
    size: integer('size'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    jobId: text('job_id'),
    requestedBy: userRef('requested_by'),
    requestedAt: instant('requested_at').notNull().defaultNow(),
    startedAt: instant('started_at'),
    finishedAt: instant('finished_at'),
    /** After this the file is deleted (REPORT_RETENTION_DAYS) and the run shows as vencido. */
    expiresAt: instant('expires_at'),
  },
  (table) => [
    index('report_runs_requester_idx').on(table.companyId, table.requestedBy, table.requestedAt),
    index('report_runs_expiry_idx').on(table.expiresAt),
  ],
);

/** A run's file in pieces of about 1 MB, written as the file is produced and read back in order for the download. */
export const reportRunChunks = pgTable(
  'report_run_chunks',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => reportRuns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    companyId: companyRef(),
    data: bytea('data').notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.seq] })],
);
