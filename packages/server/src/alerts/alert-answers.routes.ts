import {
  AlertAnswerInputSchema,
  AlertAnswerSummaryQuerySchema,
  AlertAnswerSummarySchema,
  AlertSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { AlertAnswersService } from './alert-answers.service.ts';

const tags = ['alerts'];
const security = [{ bearer: [] }];

/** "Was this you?" (issue 33, docs/alerts.md): answering an alert, and a zone's sums of answers. */
export function alertAnswersRoutes(app: App, answers: AlertAnswersService): void {
  app.post(
    '/alerts/:alertId/answer',
    {
      schema: {
        tags,
        security,
        summary:
          '"Was this you?" on a leak or abnormal-use alert: "me" or "not_me", by its zone\'s end users and managers (a new answer replaces the caller\'s)',
        params: z.object({ alertId: z.uuid('validation.invalid') }),
        body: AlertAnswerInputSchema,
        response: { 200: AlertSchema, ...errorResponses },
      },
    },
    (request) => answers.answer(actorOf(request), request.params.alertId, request.body),
  );
  app.get(
    '/alerts/answers/summary',
    {
      schema: {
        tags,
        security,
        summary:
          'How many answered "me" and "not me" on a zone\'s alerts over the last 90 days (its managers)',
        querystring: AlertAnswerSummaryQuerySchema,
        response: { 200: AlertAnswerSummarySchema, ...errorResponses },
      },
    },
    (request) => answers.summary(actorOf(request), request.query),
  );
}
