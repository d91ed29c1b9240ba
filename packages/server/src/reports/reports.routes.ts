import {
  ConfirmNameSchema,
  listOf,
  ReportGenerateSchema,
  ReportRecipientSchema,
  ReportScheduleInputSchema,
  ReportScheduleSchema,
  ReportSchema,
  type ReportFormat,
} from '@flowbox/shared';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { customerParams, siteParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { ReportScope } from './reports.repo.ts';
import type { ReportsService } from './reports.service.ts';

const security = [{ bearer: [] }];
const tags = ['reports'];
const id = z.uuid('validation.invalid');

/** The two scopes reports exist for (docs/reports.md), with their path and how to read its ids. */
const scopes = [
  {
    name: 'customer',
    prefix: '/customers/:customerId',
    params: customerParams,
    scheduleParams: customerParams.extend({ scheduleId: id }),
    reportParams: customerParams.extend({ reportId: id }),
  },
  {
    name: 'site',
    prefix: '/customers/:customerId/sites/:siteId',
    params: siteParams,
    scheduleParams: siteParams.extend({ scheduleId: id }),
    reportParams: siteParams.extend({ reportId: id }),
  },
] as const;

const scopeOf = (params: { customerId: string; siteId?: string }): ReportScope => ({
  customerId: params.customerId,
  siteId: params.siteId ?? null,
});

/** Bytes as they are: the answer's schema names a file, which the typed reply reads as text. */
const sendBytes = (reply: FastifyReply, body: Buffer) => reply.send(body);

const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

/** Scheduled reports of a customer or a site: schedules, reports, files, "generate now" (issue 33). */
export function reportsRoutes(app: App, reports: ReportsService): void {
  for (const scope of scopes) {
    const { prefix, params, scheduleParams, reportParams } = scope;
    app.get(
      `${prefix}/report_schedules/list`,
      {
        schema: {
          tags,
          security,
          summary: `The report schedules of a ${scope.name}`,
          params,
          response: { 200: listOf(ReportScheduleSchema), ...errorResponses },
        },
      },
      (request) => reports.listSchedules(actorOf(request), scopeOf(request.params)),
    );
    app.get(
      `${prefix}/report_schedules/recipients`,
      {
        schema: {
          tags,
          security,
          summary: `The users a ${scope.name}'s report schedule may name as recipients`,
          params,
          response: { 200: z.object({ items: z.array(ReportRecipientSchema) }), ...errorResponses },
        },
      },
      async (request) => ({ items: await reports.recipients(actorOf(request), scopeOf(request.params)) }),
    );
    app.post(
      `${prefix}/report_schedules/create`,
      {
        schema: {
          tags,
          security,
          summary: `Schedule a weekly or monthly report of a ${scope.name}`,
          params,
          body: ReportScheduleInputSchema,
          response: { 201: ReportScheduleSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await reports.create(actorOf(request), scopeOf(request.params), request.body)),
    );
    app.get(
      `${prefix}/report_schedules/:scheduleId/info`,
      {
        schema: {
          tags,
          security,
          params: scheduleParams,
          response: { 200: ReportScheduleSchema, ...errorResponses },
        },
      },
      (request) => reports.info(actorOf(request), scopeOf(request.params), request.params.scheduleId),
    );
    app.put(
      `${prefix}/report_schedules/:scheduleId/update`,
      {
        schema: {
          tags,
          security,
          summary: 'Replace a report schedule (every field is sent again)',
          params: scheduleParams,
          body: ReportScheduleInputSchema,
          response: { 200: ReportScheduleSchema, ...errorResponses },
        },
      },
      (request) =>
        reports.update(actorOf(request), scopeOf(request.params), request.params.scheduleId, request.body),
    );
    app.delete(
      `${prefix}/report_schedules/:scheduleId/delete`,
      {
        schema: {
          tags,
          security,
          summary: 'Delete a report schedule and its reports (spec §5: its name typed)',
          params: scheduleParams,
          body: ConfirmNameSchema,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        await reports.delete(
          actorOf(request),
          scopeOf(request.params),
          request.params.scheduleId,
          request.body.confirm_name,
        );
        return reply.status(204).send(null);
      },
    );
    app.get(
      `${prefix}/reports/list`,
      {
        schema: {
          tags,
          security,
          summary: `The ${scope.name}'s reports kept, newest first`,
          params,
          response: { 200: listOf(ReportSchema), ...errorResponses },
        },
      },
      (request) => reports.listReports(actorOf(request), scopeOf(request.params)),
    );
    app.post(
      `${prefix}/reports/generate`,
      {
        schema: {
          tags,
          security,
          summary: `Make a report of the ${scope.name} now, for chosen days (at most a year)`,
          params,
          body: ReportGenerateSchema,
          response: { 201: ReportSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await reports.generate(actorOf(request), scopeOf(request.params), request.body)),
    );
    for (const format of ['csv', 'pdf'] as const)
      app.get(
        `${prefix}/reports/:reportId/report.${format}`,
        {
          schema: {
            tags,
            security,
            summary: `A report's ${format.toUpperCase()} file, as an attachment`,
            params: reportParams,
            response: {
              200: {
                description: `The report as ${format.toUpperCase()}`,
                content: {
                  [CONTENT_TYPES[format].split(';')[0]!]: { schema: z.string().meta({ format: 'binary' }) },
                },
              },
              ...errorResponses,
            },
          },
        },
        async (request, reply) => {
          const file = await reports.download(
            actorOf(request),
            scopeOf(request.params),
            request.params.reportId,
            format,
          );
          reply
            .header('content-type', CONTENT_TYPES[format])
            .header('content-disposition', `attachment; filename="${file.fileName}"`);
          return sendBytes(reply, file.body);
        },
      );
  }
}
