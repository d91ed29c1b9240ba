import { ROLES, roleName, type PeopleList, type PeopleRoleName } from '@flowbox/shared';
import { peopleScopeFor, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import { listPeople, namedSitesOf, namedZonesOf } from './people.repo.ts';

export type PeopleQuery = { search?: string; role?: PeopleRoleName; limit: number; offset: number };

/** The people screen (issue 18): everyone with access to the caller's scope, one page at a time. */
export class PeopleService {
  constructor(private readonly ctx: Pick<Context, 'db'>) {}

  async list(actor: Actor, query: PeopleQuery): Promise<PeopleList> {
    const scope = peopleScopeFor(actor);
    const { rows, total } = await listPeople(this.ctx.db, {
      scope,
      role: query.role === undefined ? undefined : ROLES[query.role],
      search: query.search || undefined,
      limit: query.limit,
      offset: query.offset,
    });
    const ids = rows.map((r) => r.id);
    // A site manager is told only of the places it sees itself.
    const onlySites = scope.kind === 'sites' ? scope.siteIds : undefined;
    const [sitesByUser, zonesByUser] = await Promise.all([
      namedSitesOf(this.ctx.db, ids, onlySites),
      namedZonesOf(this.ctx.db, ids, onlySites),
    ]);
    return {
      items: rows.map((r) => ({
        id: r.id,
        firstname: r.firstname,
        lastname: r.lastname,
        email: r.email,
        role: r.role,
        role_name: roleName(r.role),
        customer_id: r.customerId,
        customer_name: r.customerName,
        sites: sitesByUser.get(r.id) ?? [],
        zones: zonesByUser.get(r.id) ?? [],
        last_login_at: r.lastLoggedIn?.toISOString() ?? null,
        status: r.suspendedAt ? 'suspended' : r.hasPassword ? 'active' : 'invited',
      })),
      total,
    };
  }
}
