import {
  LoginSchema,
  LogoutSchema,
  MessageSchema,
  PasswordSetSchema,
  RegisterSchema,
  RegistrationConfirmSchema,
  translate,
  RequestResetPasswordSchema,
  TokenPasswordSchema,
  TokensSchema,
  UpdatePasswordSchema,
  UserSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { requestLanguage } from '../http/language.ts';
import { actorOf, bearerToken, errorResponses, type App } from '../http/types.ts';
import { REGISTRATION_CONFIRM_HOURS } from './account-links.service.ts';
import type { AuthService } from './auth.service.ts';
import type { ManagersService } from '../users/managers.service.ts';

const tags = ['users'];

/** Where a session is opened from, as its record keeps it. */
const client = (request: { ip: string; headers: { 'user-agent'?: string } }) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/** spec §7 account calls. Public ones are registered here; the rest sit behind `authenticate`. */
export function publicAuthRoutes(app: App, auth: AuthService): void {
  app.post(
    '/users/token',
    {
      schema: {
        tags,
        summary: 'Log in',
        body: LoginSchema,
        response: { 200: TokensSchema, ...errorResponses },
      },
    },
    (request) => auth.login(request.body.email, request.body.password, client(request)),
  );

  app.post(
    '/users/refresh',
    {
      schema: {
        tags,
        summary: 'Rotate tokens; the refresh token is the Bearer (spec §4)',
        security: [{ bearer: [] }],
        response: { 200: TokensSchema, ...errorResponses },
      },
    },
    (request) => auth.refresh(bearerToken(request)),
  );

  app.post(
    '/users/request_reset_password',
    {
      schema: { tags, body: RequestResetPasswordSchema, response: { 202: MessageSchema, ...errorResponses } },
    },
    async (request, reply) => {
      await auth.links.requestResetPassword(request.body.email, request.ip);
      const message =
        requestLanguage(request) === 'fr'
          ? 'Si un compte existe pour cet email, un lien de réinitialisation vient de lui être envoyé.'
          : 'If an account exists for this email, a reset link has just been sent to it.';
      return reply.status(202).send({ message });
    },
  );

  app.post(
    '/users/reset_password',
    { schema: { tags, body: TokenPasswordSchema, response: { 200: MessageSchema, ...errorResponses } } },
    async (request) => {
      await auth.links.usePasswordLink('reset', request.body.token, request.body.password, client(request));
      return { message: passwordSavedMessage(requestLanguage(request)) };
    },
  );

  app.post(
    '/users/set_password',
    {
      schema: {
        tags,
        summary: "An invitation's first password; answers the new user's first session, as a login does",
        body: TokenPasswordSchema,
        response: { 200: PasswordSetSchema, ...errorResponses },
      },
    },
    async (request) => {
      const tokens = await auth.links.acceptInvitation(
        request.body.token,
        request.body.password,
        client(request),
      );
      return { message: passwordSavedMessage(requestLanguage(request)), ...tokens };
    },
  );

  app.post(
    '/users/register',
    { schema: { tags, body: RegisterSchema, response: { 201: MessageSchema, ...errorResponses } } },
    async (request, reply) => {
      await auth.links.register(request.body, request.ip);
      // The same answer for every address, taken or not (docs/reliability.md): true in both cases (a
      // taken address is emailed too). It asks for the link to be opened: until then the
      // registration is unconfirmed and no manager sees it (docs/permissions.md "Registration").
      const message = translate('message.registration_received', requestLanguage(request), {
        hours: REGISTRATION_CONFIRM_HOURS,
      });
      return reply.status(201).send({ message });
    },
  );

  app.post(
    '/users/register/confirm',
    {
      schema: {
        tags,
        body: RegistrationConfirmSchema,
        response: {
          200: MessageSchema.extend({ status: z.enum(['pending', 'approved']) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const status = await auth.links.confirmRegistration(
        request.body.token,
        request.body.password,
        request.ip,
      );
      const key =
        status === 'approved'
          ? 'message.registration_confirmed_active'
          : 'message.registration_confirmed_pending';
      return { message: translate(key, requestLanguage(request)), status };
    },
  );
}

export function authRoutes(app: App, auth: AuthService, managers: ManagersService): void {
  app.get(
    '/users/me',
    { schema: { tags, security: [{ bearer: [] }], response: { 200: UserSchema, ...errorResponses } } },
    (request) => {
      const actor = actorOf(request);
      return managers.info(actor, { role: actor.role, customerId: actor.customerId }, actor.id);
    },
  );

  app.put(
    '/users/update_password',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        body: UpdatePasswordSchema,
        response: { 200: MessageSchema, ...errorResponses },
      },
    },
    async (request) => {
      await auth.links.updatePassword(actorOf(request), request.body.current_password, request.body.password);
      return { message: passwordSavedMessage(requestLanguage(request)) };
    },
  );

  app.post(
    '/users/logout',
    {
      schema: {
        tags,
        summary: 'End the session: every token of it stops working',
        security: [{ bearer: [] }],
        body: LogoutSchema.optional(),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await auth.logout(actorOf(request));
      return reply.status(204).send(null);
    },
  );
}

function passwordSavedMessage(language: 'en' | 'fr'): string {
  return language === 'fr' ? 'Votre mot de passe a été enregistré.' : 'Your password has been saved.';
}
