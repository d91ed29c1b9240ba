import { volumeMarginOutOfBounds, type AutomaticClosingSettings, type Automation } from '@flowbox/shared';
import { requireSiteManage, requireZoneRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import { AppError } from '../errors.ts';
import { recordChange } from '../events/index.ts';
import type { ZonePath } from '../http/params.ts';
import { ensureAutomationRows, updateAutomation } from './automation.repo.ts';
import { findZoneAutomation, publishAutomation, toApiAutomation } from './zone-automation.ts';

/** A zone's automatic-closing settings (spec §3): its margins and whether it closes by itself. */
export class AutomationSettings {
  constructor(private readonly ctx: Context) {}

  async info(actor: Actor, path: ZonePath): Promise<Automation> {
    requireZoneRead(actor, path);
    return toApiAutomation(await findZoneAutomation(this.ctx.db, path));
  }

  async update(actor: Actor, path: ZonePath, input: AutomaticClosingSettings): Promise<Automation> {
    requireSiteManage(actor, path.customerId, path.siteId, 'automation.manage');
    const found = await findZoneAutomation(this.ctx.db, path);
    if (found.automation.lockedAt) throw new AppError('errors.no_action_allowed');
    const unit = found.building.volumeUnit;
    const bounds = input.volume_margin === null ? null : volumeMarginOutOfBounds(input.volume_margin, unit);
    if (bounds)
      throw new AppError('errors.validation', {}, [
        { path: 'volume_margin', message: 'validation.between', params: bounds },
      ]);
    const now = this.ctx.now();
    const patch = {
      automaticClosingEnabled: input.automatic_closing_enabled,
      volumeMarginEnabled: input.volume_margin_enabled,
      volumeMargin: input.volume_margin === null ? null : String(input.volume_margin),
      volumeMarginUnit: input.volume_margin === null ? null : unit,
      durationMarginEnabled: input.duration_margin_enabled,
      durationMarginMinutes: input.duration_margin_minutes,
    };
    const before = toApiAutomation(found);
    const changed = (Object.keys(input) as (keyof AutomaticClosingSettings)[])
      .filter((key) => before[key] !== input[key])
      .sort();
    return this.ctx.db.transaction(async (tx) => {
      await ensureAutomationRows(tx, [path.zoneId]);
      const row = await updateAutomation(tx, path.zoneId, patch, now);
      await recordChange(tx, now, actor, {
        action: 'automatic_closing_updated',
        object: 'zone',
        objectId: path.zoneId,
        objectLabel: found.zone.name,
        scope: found.scope,
        changedFields: changed,
      });
      return publishAutomation(tx, { ...found, automation: row });
    });
  }
}
