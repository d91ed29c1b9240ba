import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Actor } from '../access/access.ts';
import { AppError } from '../errors.ts';
import { ApiErrorSchema } from '@flowbox/shared';

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
    /** The live updates' `mark()` when the request arrived (live/live.ts `heardSince`). */
    heardMark?: number;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The signed-in caller; routes behind the authentication hook always have one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('errors.auth_expired');
  return request.actor;
}

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw new AppError('errors.auth_expired');
  return match[1];
}

/** The error answers every route declares (one shape: `{ code, message, details? }`). */
export const errorResponses = {
  400: ApiErrorSchema.describe('Invalid input'),
  401: ApiErrorSchema.describe('Not signed in, or the session expired'),
  403: ApiErrorSchema.describe('Unauthorized resource recovery'),
  404: ApiErrorSchema.describe('Not found'),
  409: ApiErrorSchema.describe('Conflict, such as an email already used'),
  429: ApiErrorSchema.describe('Too many attempts'),
};
