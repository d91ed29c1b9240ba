import { sql, type SQL } from 'drizzle-orm';
import { arrayLiteral } from './arrays.ts';
import { telemetryReadings } from './schema.ts';

/*
 * telemetry_readings names a flowbox by its small key (`flowboxes.num`, migration 0027): these are
 * the conditions and the column that speak of its rows by the flowbox's id.
 */

/** The rows of one flowbox. */
export const readingsOfFlowbox = (flowboxId: string): SQL =>
  sql`${telemetryReadings.flowboxNum} = (SELECT num FROM flowboxes WHERE id = ${flowboxId}::uuid)`;

/** The rows of several flowboxes. */
export const readingsOfFlowboxes = (flowboxIds: readonly string[]): SQL =>
  sql`${telemetryReadings.flowboxNum} IN (SELECT num FROM flowboxes WHERE id = ANY(${arrayLiteral([...flowboxIds])}::uuid[]))`;

/** A row's flowbox id, to select. */
export const readingFlowboxId = sql<string>`(SELECT id FROM flowboxes WHERE num = ${telemetryReadings.flowboxNum})`;
