import { languageFromHeader, type Language } from '@flowbox/shared';
import type { FastifyRequest } from 'fastify';

/**
 * The language of an answer: the one the client asks for in Accept-Language when it names en or fr
 * (the web app sends its current UI language), else the signed-in user's, else English.
 */
export function requestLanguage(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  if (header && /(^|,)\s*(en|fr)\b/i.test(header)) return languageFromHeader(header);
  return request.actor?.language ?? 'en';
}
