import {
  ROLES,
  type EventAction,
  type PricingPlan,
  type PricingPlanCreateSchema,
  type PricingPlanListQuerySchema,
  type PricingPlanUpdateSchema,
  typedNameMatches,
} from '@flowbox/shared';
import type { z } from 'zod';
import { requireProviderManage, requireRole, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, namesMismatch, notFound } from '../errors.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import {
  archiveVersion,
  defaultPlansOverlapping,
  deletePlan,
  findPlan,
  findPlanRow,
  insertPlan,
  insertVersion,
  listPlans,
  planHasSubscriptions,
  updatePlan,
  updateVersion,
  versionsOf,
  type NewVersionRow,
  type PlanRow,
  type VersionWithRanges,
} from './plans.repo.ts';

type CreateInput = z.output<typeof PricingPlanCreateSchema>;
type UpdateInput = z.output<typeof PricingPlanUpdateSchema>;

/** The terms a version carries; `new_price` starts a new version with them (docs/billing.md). */
const TERM_FIELDS = [
  'from_date',
  'billing_type',
  'acquisition_type',
  'currency',
  'volume_unit',
  'ranges',
] as const;

/** Pricing plans (spec §2, §3, §6): the subscriptions screens are the provider managers' only. */
export class PricingPlansService {
  constructor(private readonly ctx: Context) {}

  list(actor: Actor, query: z.output<typeof PricingPlanListQuerySchema>) {
    requireRole(actor, ROLES.flovea_manager);
    return listPlans(this.ctx.db, query);
  }

  async info(actor: Actor, id: string): Promise<PricingPlan> {
    requireRole(actor, ROLES.flovea_manager);
    const plan = await findPlan(this.ctx.db, id);
    if (!plan) throw notFound();
    return plan;
  }

  async create(actor: Actor, input: CreateInput): Promise<PricingPlan> {
    requireProviderManage(actor, 'subscriptions.manage');
    const id = await this.ctx.db.transaction(async (tx) => {
      const plan = await insertPlan(tx, {
        name: input.name,
        isDefault: input.is_default,
        regions: input.regions,
      });
      if (input.is_default) await this.clearOtherDefaults(tx, actor, plan.id, input.regions);
      await insertVersion(tx, { ...versionValues(input), planId: plan.id, version: 1 }, input.ranges);
      await this.record(tx, actor, 'created', plan, []);
      return plan.id;
    });
    return this.info(actor, id);
  }

  /**
   * Renames, moves the default or the regions, and changes the price: with `new_price` as a new
   * version from its date (the current one archived, spec §3), otherwise in place while no zone
   * has subscribed (spec §4: consumption before a new price keeps its old price).
   */
  async update(actor: Actor, id: string, input: UpdateInput): Promise<PricingPlan> {
    requireProviderManage(actor, 'subscriptions.manage');
    const plan = await this.find(id);
    const versions = await versionsOf(this.ctx.db, [id]);
    const [latest, previous] = versions;
    const changesTerms = TERM_FIELDS.some((field) => input[field] !== undefined);
    if (input.new_price) requireStartAfter(input.from_date, latest!);
    else if (changesTerms) {
      if (await planHasSubscriptions(this.ctx.db, id)) throw new AppError('errors.pricing_plan_in_use');
      if (previous) requireStartAfter(input.from_date, previous);
    }
    await this.ctx.db.transaction(async (tx) => {
      const regions = input.regions ?? plan.regions;
      const becomesDefault = input.is_default ?? plan.isDefault;
      const updated = await updatePlan(tx, id, {
        name: input.name,
        isDefault: input.is_default,
        regions: input.regions,
      });
      if (becomesDefault && (input.is_default || input.regions))
        await this.clearOtherDefaults(tx, actor, id, regions);
      if (input.new_price) {
        await archiveVersion(tx, latest!.id, this.ctx.now());
        await insertVersion(
          tx,
          {
            ...versionValues({ ...termsFromVersion(latest!), ...definedTerms(input) }),
            planId: id,
            version: latest!.version + 1,
          },
          input.ranges ?? latest!.ranges,
        );
      } else if (changesTerms) {
        await updateVersion(tx, latest!.id, versionPatch(definedTerms(input)), input.ranges);
      }
      const { new_price: newPrice, ...fields } = input;
      await this.record(tx, actor, newPrice ? 'price_changed' : 'updated', updated, changedFieldsOf(fields));
    });
    return this.info(actor, id);
  }

  /**
   * Deletes a plan nobody ever subscribed to; otherwise archives it, since the zones' history
   * keeps its prices: it is then offered to no one, and its subscriptions run on.
   */
  async remove(actor: Actor, id: string, confirmName: string): Promise<{ archived: boolean }> {
    requireProviderManage(actor, 'subscriptions.manage');
    const plan = await this.find(id);
    if (!typedNameMatches(confirmName, plan.name)) throw namesMismatch();
    const archive = await planHasSubscriptions(this.ctx.db, id);
    await this.ctx.db.transaction(async (tx) => {
      if (archive) await updatePlan(tx, id, { archivedAt: this.ctx.now(), isDefault: false });
      else await deletePlan(tx, id);
      await this.record(tx, actor, archive ? 'archived' : 'deleted', plan, []);
    });
    return { archived: archive };
  }

  /** A country has one default plan at most: making this one the default unsets the others there. */
  private async clearOtherDefaults(db: Db, actor: Actor, id: string, regions: string[]): Promise<void> {
    for (const other of await defaultPlansOverlapping(db, regions, id)) {
      const row = await updatePlan(db, other.id, { isDefault: false });
      await this.record(db, actor, 'updated', row, ['is_default']);
    }
  }

  private async find(id: string): Promise<PlanRow> {
    const row = await findPlanRow(this.ctx.db, id);
    if (!row) throw notFound();
    return row;
  }

  /** Plans belong to no customer: their lines are in no customer's log. */
  private record(db: Db, actor: Actor, action: EventAction, plan: PlanRow, changedFields: string[]) {
    return recordChange(db, this.ctx.now(), actor, {
      action,
      object: 'pricing_plan',
      objectId: plan.id,
      objectLabel: plan.name,
      scope: { customerId: null },
      changedFields,
    });
  }
}

/** A price starts after the one before it, so each day has exactly one price. */
function requireStartAfter(fromDate: string | undefined, before: VersionWithRanges): void {
  if (fromDate !== undefined && fromDate <= before.fromDate)
    throw new AppError('errors.validation', {}, [
      { path: 'from_date', message: 'validation.new_price_after' },
    ]);
}

type Terms = Partial<Pick<CreateInput, (typeof TERM_FIELDS)[number]>>;
type FullTerms = Pick<
  CreateInput,
  'from_date' | 'billing_type' | 'acquisition_type' | 'currency' | 'volume_unit'
>;

function definedTerms(input: UpdateInput): Terms {
  return Object.fromEntries(TERM_FIELDS.map((f) => [f, input[f]]).filter(([, v]) => v !== undefined));
}

function termsFromVersion(version: VersionWithRanges): FullTerms {
  return {
    from_date: version.fromDate,
    billing_type: version.billingType,
    acquisition_type: version.acquisitionType,
    currency: version.currency,
    volume_unit: version.volumeUnit,
  };
}

function versionValues(terms: FullTerms) {
  return {
    fromDate: terms.from_date,
    billingType: terms.billing_type,
    acquisitionType: terms.acquisition_type,
    currency: terms.currency,
    volumeUnit: terms.volume_unit,
  };
}

function versionPatch(terms: Terms): Partial<NewVersionRow> {
  const patch: Partial<NewVersionRow> = {};
  if (terms.from_date !== undefined) patch.fromDate = terms.from_date;
  if (terms.billing_type !== undefined) patch.billingType = terms.billing_type;
  if (terms.acquisition_type !== undefined) patch.acquisitionType = terms.acquisition_type;
  if (terms.currency !== undefined) patch.currency = terms.currency;
  if (terms.volume_unit !== undefined) patch.volumeUnit = terms.volume_unit;
  return patch;
}
