import { describeIssues, translate, type ApiError, type ErrorCode, type FieldIssue } from '@flowbox/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, RangeNotSatisfiable, statusOf, TooManyRequests, type ServerErrorCode } from '../errors.ts';
import { requestLanguage } from './language.ts';

/** Request validation failure carrying zod's issues, so they can be translated per field. */
export class RequestValidationError extends Error {
  readonly statusCode = statusOf('errors.validation');
  constructor(readonly issues: readonly z.core.$ZodIssue[]) {
    super('request validation failed');
  }
}

/**
 * Fastify's own errors that are the caller's fault, with the catalogue code each answers: its
 * status is the code's (STATUS_OF, errors.ts), the one place a status comes from.
 */
const CLIENT_ERRORS: Record<string, ServerErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'errors.payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'errors.unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'errors.validation',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'errors.validation',
  FST_ERR_CTP_INVALID_JSON_BODY: 'errors.validation',
  FST_ERR_VALIDATION: 'errors.validation',
  // @fastify/multipart (image uploads)
  FST_REQ_FILE_TOO_LARGE: 'errors.image_too_large',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'errors.image_type',
  FST_FILES_LIMIT: 'errors.validation',
  FST_PARTS_LIMIT: 'errors.validation',
  FST_PROTO_VIOLATION: 'errors.validation',
  FST_MP_PREMATURE_CLOSE: 'errors.validation',
};

/**
 * The code answering another client error, raised by a plugin with a status of its own (a web
 * asset's 403 or 416 from @fastify/static, a multipart limit's 413), for each status the table
 * has a general code of: the answer keeps that status. Any other is a 400.
 */
export const CODE_OF_CLIENT_STATUS: Partial<Record<number, ServerErrorCode>> = {
  403: 'errors.forbidden',
  404: 'errors.not_found',
  413: 'errors.payload_too_large',
  415: 'errors.unsupported_media_type',
  416: 'errors.range_not_satisfiable',
};

/**
 * An error answer, `{ code, message, details? }`: the status from STATUS_OF, the message in the
 * caller's language. `details` are sent as given (already in words for the caller).
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ServerErrorCode,
  params: Record<string, string | number> = {},
  details?: FieldIssue[],
): FastifyReply {
  const body: ApiError = { code, message: translate(code, requestLanguage(request), params) };
  if (details?.length) body.details = details;
  return reply.status(statusOf(code)).send(body);
}

/** The one place where errors become answers: `{ code, message, details? }` in the caller's language. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const language = requestLanguage(request);
    const send = (
      code: ServerErrorCode,
      params: Record<string, string | number> = {},
      details?: FieldIssue[],
    ) => sendError(request, reply, code, params, details);

    if (error instanceof TooManyRequests) reply.header('retry-after', String(error.retryAfterS));
    if (error instanceof RangeNotSatisfiable) reply.header('content-range', `bytes */${error.size}`);
    if (error instanceof AppError) {
      const details = error.details?.map((d) => ({
        path: d.path,
        message: translate(d.message as ErrorCode, language, d.params),
      }));
      return send(error.code, error.params, details);
    }
    if (error instanceof RequestValidationError) {
      return send('errors.validation', {}, describeIssues(error.issues, language));
    }
    if (error.statusCode === 429) return send('errors.rate_limited');
    if (error instanceof SyntaxError && error.statusCode === 400) return send('errors.validation');
    const known = CLIENT_ERRORS[error.code];
    if (known) return send(known);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return send(CODE_OF_CLIENT_STATUS[error.statusCode] ?? 'errors.validation');
    }
    request.log.error({ err: error }, 'unexpected error');
    return send('errors.api_error');
  });
}

/** Validates a request part with its zod schema; failures keep zod's issues for translation. */
export function zodValidatorCompiler({ schema }: { schema: z.ZodType }) {
  return (data: unknown) => {
    const forbidden = forbiddenCharacterIssues(data);
    if (forbidden.length) return { error: new RequestValidationError(forbidden) };
    // The input is reported so that a wrong type is told apart from a missing value.
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues) };
  };
}

/**
 * Text PostgreSQL cannot store: U+0000 (text and jsonb refuse it) and a UTF-16 surrogate without its
 * pair (jsonb refuses its escape). Either made a write fail with a 500.
 */
const FORBIDDEN_CHARACTER = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * No request part carries such text into a service: each string or key holding it is refused as
 * its field. Walked breadth first without recursion, so a body nested 100,000 deep costs no stack.
 */
function forbiddenCharacterIssues(data: unknown): z.core.$ZodIssue[] {
  type Node = { value: unknown; key: string; parent: number };
  const nodes: Node[] = [{ value: data, key: '', parent: -1 }];
  const pathOf = (index: number, key?: string): string[] => {
    const path = key === undefined ? [] : [key];
    for (let i = index; i > 0; i = nodes[i]!.parent) path.push(nodes[i]!.key);
    return path.reverse();
  };
  const issues: z.core.$ZodIssue[] = [];
  const refuse = (path: string[]) =>
    issues.push({ code: 'custom', path, message: 'validation.forbidden_character', input: undefined });
  for (let i = 0; i < nodes.length; i++) {
    const { value } = nodes[i]!;
    if (typeof value === 'string' && FORBIDDEN_CHARACTER.test(value)) refuse(pathOf(i));
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, item] of Object.entries(value)) {
      if (FORBIDDEN_CHARACTER.test(key)) refuse(pathOf(i, key));
      nodes.push({ value: item, key, parent: i });
    }
  }
  return issues;
}
