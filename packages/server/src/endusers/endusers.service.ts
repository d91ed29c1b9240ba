import type {
  ClaimCode,
  ClaimCodeCreateInput,
  ClaimCodeIssued,
  Registration,
  ReviewableRegistrationState,
} from '@flowbox/shared';
import {
  canReadCustomer,
  canReadSite,
  requireClaimCodeIssue,
  requireManager,
  requirePeopleManage,
  requirePermission,
  siteFilterFor,
  type Actor,
  unknownTo,
} from '../access/access.ts';
import type { Context } from '../context.ts';
import { requireCustomerRow } from '../customers/index.ts';
import { forbidden, notFound, AppError } from '../errors.ts';
import { recordChange } from '../events/index.ts';
import type { ZonePath } from '../http/params.ts';
import { findZoneRow } from '../zones/index.ts';
import {
  activateRegistration,
  groupedCode,
  hashClaimCode,
  newClaimCode,
  toApiRegistration,
} from './activation.ts';
import { registrationRefusedEmail } from './emails.ts';
import {
  decideRegistration,
  findClaimCode,
  findRegistration,
  insertClaimCode,
  listClaimCodes,
  listRegistrations,
  revokeClaimCode,
  type ClaimCodeRow,
} from './endusers.repo.ts';

/**
 * Claim codes and the review of registrations (docs/permissions.md "Registration"): a zone's
 * managers (provider, customer managers, site managers of its site) with `end_users.manage`.
 */
export class EndUsersService {
  constructor(private readonly ctx: Context) {}

  async listCodes(actor: Actor, path: ZonePath): Promise<{ items: ClaimCode[]; total: number }> {
    requireClaimCodeIssue(actor, path.customerId, path.siteId);
    await this.requireZone(path);
    const items = (await listClaimCodes(this.ctx.db, path.zoneId)).map((row) => this.toApi(row));
    return { items, total: items.length };
  }

  async issueCode(
    actor: Actor,
    path: ZonePath,
    input: Required<ClaimCodeCreateInput>,
  ): Promise<ClaimCodeIssued> {
    requireClaimCodeIssue(actor, path.customerId, path.siteId);
    await this.requireZone(path);
    const now = this.ctx.now();
    const code = newClaimCode();
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertClaimCode(tx, {
        zoneId: path.zoneId,
        codeHash: hashClaimCode(code),
        hint: code.slice(-4),
        expiresAt: new Date(now.getTime() + input.expires_in_days * 86_400_000),
        maxUses: input.max_uses,
        autoApprove: input.auto_approve,
        createdBy: actor.id,
        createdAt: now,
      });
      await this.record(tx, actor, path, 'created', created);
      return created;
    });
    return { ...this.toApi(row), code: groupedCode(code) };
  }

  async revokeCode(actor: Actor, path: ZonePath, codeId: string): Promise<ClaimCode> {
    requireClaimCodeIssue(actor, path.customerId, path.siteId);
    await this.requireZone(path);
    const current = await findClaimCode(this.ctx.db, path.zoneId, codeId);
    if (!current) throw notFound();
    if (current.revokedAt) return this.toApi(current);
    const row = await this.ctx.db.transaction(async (tx) => {
      const revoked = await revokeClaimCode(tx, codeId, this.ctx.now());
      await this.record(tx, actor, path, 'revoked', revoked);
      return revoked;
    });
    return this.toApi(row);
  }

  async listRegistrations(
    actor: Actor,
    customerId: string,
    query: { status?: ReviewableRegistrationState; limit: number; offset: number },
  ): Promise<{ items: Registration[]; total: number }> {
    requirePeopleManage(actor, customerId);
    await requireCustomerRow(this.ctx.db, customerId);
    const { rows, total } = await listRegistrations(
      this.ctx.db,
      { customerId, siteIds: siteFilterFor(actor), status: query.status },
      query,
    );
    return { items: rows.map((r) => toApiRegistration(r.registration, r.place)), total };
  }

  async approve(actor: Actor, customerId: string, id: string): Promise<Registration> {
    const found = await this.findDecidable(actor, customerId, id);
    const { row } = await this.ctx.db.transaction((tx) =>
      activateRegistration(tx, this.ctx, found.registration, found.place, { by: actor }),
    );
    this.ctx.mailer.kick();
    return toApiRegistration(row, found.place);
  }

  async refuse(actor: Actor, customerId: string, id: string): Promise<Registration> {
    const found = await this.findDecidable(actor, customerId, id);
    const { registration, place } = found;
    const now = this.ctx.now();
    const row = await this.ctx.db.transaction(async (tx) => {
      const decided = await decideRegistration(tx, registration.id, {
        status: 'rejected',
        decidedAt: now,
        decidedBy: actor.id,
        userId: null,
      });
      if (!decided) throw new AppError('errors.registration_decided');
      await recordChange(tx, now, actor, {
        action: 'refused',
        object: 'registration',
        objectId: decided.id,
        objectLabel: `${decided.firstname} ${decided.lastname}`,
        scope: {
          customerId: place.customerId,
          siteId: place.siteId,
          buildingId: place.buildingId,
          zoneId: place.zoneId,
        },
      });
      await this.ctx.mailer.enqueue(tx, [
        {
          to: decided.email,
          ...registrationRefusedEmail(decided.language),
          kind: 'registration_refused',
        },
      ]);
      return decided;
    });
    this.ctx.mailer.kick();
    return toApiRegistration(row, place);
  }

  /** A registration the actor may decide: one of its scope, confirmed and not yet decided. */
  private async findDecidable(actor: Actor, customerId: string, id: string) {
    requireManager(actor);
    if (!canReadCustomer(actor, customerId)) throw forbidden();
    const found = await findRegistration(this.ctx.db, customerId, id);
    // Someone else's (or nobody's) registration: the refusal an out-of-scope one gets.
    if (!found) throw unknownTo(actor);
    if (!canReadSite(actor, found.place.customerId, found.place.siteId)) throw forbidden();
    requirePermission(actor, 'end_users.manage');
    if (found.registration.status !== 'pending') throw new AppError('errors.registration_decided');
    return found;
  }

  private async requireZone(path: ZonePath): Promise<void> {
    if (!(await findZoneRow(this.ctx.db, path))) throw notFound();
  }

  private record(
    db: Parameters<typeof recordChange>[0],
    actor: Actor,
    path: ZonePath,
    action: 'created' | 'revoked',
    row: ClaimCodeRow,
  ): Promise<void> {
    return recordChange(db, this.ctx.now(), actor, {
      action,
      object: 'claim_code',
      objectId: row.id,
      objectLabel: row.hint,
      scope: {
        customerId: path.customerId,
        siteId: path.siteId,
        buildingId: path.buildingId,
        zoneId: path.zoneId,
      },
    });
  }

  private toApi(row: ClaimCodeRow): ClaimCode {
    const now = this.ctx.now();
    const state = row.revokedAt
      ? 'revoked'
      : row.expiresAt <= now
        ? 'expired'
        : row.maxUses !== null && row.uses >= row.maxUses
          ? 'used_up'
          : 'active';
    return {
      id: row.id,
      zone_id: row.zoneId,
      hint: row.hint,
      expires_at: row.expiresAt.toISOString(),
      max_uses: row.maxUses,
      uses: row.uses,
      auto_approve: row.autoApprove,
      state,
      created_at: row.createdAt.toISOString(),
    };
  }
}
