import {
  ROLES,
  ConfirmNameSchema,
  EndUserCreateSchema,
  EndUserUpdateSchema,
  ListQuerySchema,
  PlumberUserCreateSchema,
  PlumberUserUpdateSchema,
  listOf,
  ManagerCreateSchema,
  ManagerUpdateAnswerSchema,
  ManagerUpdateSchema,
  SiteManagerCreateSchema,
  SiteManagerListQuerySchema,
  SiteManagerUpdateSchema,
  UserSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { Family, ManagersService } from './managers.service.ts';

const security = [{ bearer: [] }];
const uuidParam = z.uuid('validation.invalid');

type FamilyRoutes = {
  prefix: string;
  tag: string;
  /** The path parameters before `/{managerId}` (the customer id, or none for provider managers). */
  params: z.ZodObject;
  family: (params: object) => Family;
  create: typeof ManagerCreateSchema | typeof SiteManagerCreateSchema | typeof EndUserCreateSchema;
  update:
    | typeof ManagerUpdateSchema
    | typeof SiteManagerUpdateSchema
    | typeof EndUserUpdateSchema
    | typeof PlumberUserUpdateSchema;
  listQuery:
    | typeof ListQuerySchema
    | ReturnType<typeof ListQuerySchema.extend<typeof SiteManagerListQuerySchema.shape>>;
};

/** spec §7 manager calls: list, info, create, update, delete, in the same shape for each family (and for end users and plumbers). */
export function managersRoutes(app: App, managers: ManagersService): void {
  const families: FamilyRoutes[] = [
    {
      prefix: '/flovea_managers',
      tag: 'flovea managers',
      params: z.object({}),
      family: () => ({ role: ROLES.flovea_manager, customerId: null }),
      create: ManagerCreateSchema,
      update: ManagerUpdateSchema,
      listQuery: ListQuerySchema,
    },
    {
      prefix: '/customers/:customerId/customer_managers',
      tag: 'customer managers',
      params: z.object({ customerId: uuidParam }),
      family: (p) => ({ role: ROLES.customer_manager, customerId: customerIdOf(p) }),
      create: ManagerCreateSchema,
      update: ManagerUpdateSchema,
      listQuery: ListQuerySchema,
    },
    {
      prefix: '/customers/:customerId/site_managers',
      tag: 'site managers',
      params: z.object({ customerId: uuidParam }),
      family: (p) => ({ role: ROLES.site_manager, customerId: customerIdOf(p) }),
      create: SiteManagerCreateSchema,
      update: SiteManagerUpdateSchema,
      listQuery: ListQuerySchema.extend(SiteManagerListQuerySchema.shape),
    },
    // docs/permissions.md "End users and plumbers": the same calls, by their places' managers.
    {
      prefix: '/customers/:customerId/end_users',
      tag: 'end users',
      params: z.object({ customerId: uuidParam }),
      family: (p) => ({ role: ROLES.end_user, customerId: customerIdOf(p) }),
      create: EndUserCreateSchema,
      update: EndUserUpdateSchema,
      listQuery: ListQuerySchema,
    },
    {
      prefix: '/customers/:customerId/plumbers',
      tag: 'plumbers',
      params: z.object({ customerId: uuidParam }),
      family: (p) => ({ role: ROLES.plumber, customerId: customerIdOf(p) }),
      create: PlumberUserCreateSchema,
      update: PlumberUserUpdateSchema,
      listQuery: ListQuerySchema.extend(SiteManagerListQuerySchema.shape),
    },
  ];
  for (const f of families) familyRoutes(app, managers, f);
}

function familyRoutes(app: App, managers: ManagersService, f: FamilyRoutes): void {
  const tags = [f.tag];
  const one = f.params.extend({ managerId: uuidParam }) as z.ZodObject<{ managerId: typeof uuidParam }>;
  app.get(
    `${f.prefix}/list`,
    {
      schema: {
        tags,
        security,
        params: f.params,
        querystring: f.listQuery,
        response: { 200: listOf(UserSchema), ...errorResponses },
      },
    },
    (request) => {
      const query = request.query as z.output<typeof ListQuerySchema> & { site_id?: string };
      return managers.list(actorOf(request), f.family(request.params), { ...query, siteId: query.site_id });
    },
  );
  app.get(
    `${f.prefix}/:managerId/info`,
    { schema: { tags, security, params: one, response: { 200: UserSchema, ...errorResponses } } },
    (request) => managers.info(actorOf(request), f.family(request.params), request.params.managerId),
  );
  app.post(
    `${f.prefix}/create`,
    {
      schema: {
        tags,
        security,
        params: f.params,
        body: f.create,
        response: { 201: UserSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await managers.create(actorOf(request), f.family(request.params), request.body)),
  );
  app.put(
    `${f.prefix}/:managerId/update`,
    {
      schema: {
        tags,
        security,
        params: one,
        body: f.update,
        response: { 200: ManagerUpdateAnswerSchema, ...errorResponses },
      },
    },
    (request) =>
      managers.update(actorOf(request), f.family(request.params), request.params.managerId, request.body),
  );
  app.delete(
    `${f.prefix}/:managerId/delete`,
    {
      schema: {
        tags,
        security,
        params: one,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await managers.remove(
        actorOf(request),
        f.family(request.params),
        request.params.managerId,
        request.body.confirm_name,
      );
      return reply.status(204).send(null);
    },
  );
}

function customerIdOf(params: object): string {
  return String((params as { customerId?: string }).customerId);
}
