import type { ActivityEvent } from '@flowbox/shared';
import type { TFunction } from 'i18next';
import { numberFormat } from '../../lib/intl.ts';
import { fieldLabel } from './field-label.ts';

/*
 * Firmware lines say what happened in words (docs/firmware.md "Activity log", issue 30): a rollout
 * is logged by its own life, its counts in changed_fields as name=value ("flowboxes=500"), and a
 * flowbox's update by its state, version and reason. This turns them into a sentence; the other
 * lines keep their list of changed fields.
 */

type Facts = { counts: Map<string, number>; others: string[] };

/** The counts a rollout's lines carry, each worded with its plural (firmware-log.ts). */
type CountName = 'flowboxes' | 'waves' | 'left_out' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';

function factsOf(fields: readonly string[]): Facts {
  const counts = new Map<string, number>();
  const others: string[] = [];
  for (const field of fields) {
    const match = /^([a-z_]+)=(\d+)$/.exec(field);
    if (match) counts.set(match[1]!, Number(match[2]));
    else others.push(field);
  }
  return { counts, others };
}

/** The sentence a firmware line adds under its own, or null for any other line. */
export function firmwareDetail(event: ActivityEvent, t: TFunction, language: string): string | null {
  if (event.action_name === 'firmware_update') return updateDetail(event.changed_fields, t);
  if (event.object_name !== 'firmware_rollout') return null;
  const { counts, others } = factsOf(event.changed_fields);
  const format = numberFormat(language);
  /** "12 flowboxes", "1 vague": the count in the reader's digits, the word in its plural. */
  const count = (name: CountName) => {
    const n = counts.get(name);
    return n === undefined ? null : t(`event.rollout_count.${name}`, { count: n, n: format.format(n) });
  };
  switch (event.action_name) {
    case 'rollout_created': {
      const version = others[0] ?? '';
      const flowboxes = count('flowboxes');
      const waves = count('waves');
      if (!flowboxes || !waves) return version ? t('event.rollout_detail.version', { version }) : null;
      const created = t('event.rollout_detail.created', { version, flowboxes, waves });
      const leftOut = count('left_out');
      return counts.get('left_out')
        ? t('event.rollout_detail.left_out', { created, left_out: leftOut })
        : created;
    }
    case 'rollout_wave_started': {
      const wave = counts.get('wave');
      const waves = counts.get('waves');
      const flowboxes = count('flowboxes');
      if (wave === undefined || waves === undefined || !flowboxes) return null;
      return t('event.rollout_detail.wave_started', { wave, waves, flowboxes });
    }
    case 'rollout_halted': {
      const reason = others[0] ? fieldLabel(others[0], t) : '';
      const succeeded = count('succeeded');
      const failed = count('failed');
      if (!succeeded || !failed) return reason || null;
      return t('event.rollout_detail.halted', { reason, succeeded, failed });
    }
    case 'rollout_cancelled': {
      const cancelled = count('cancelled');
      const succeeded = count('succeeded');
      const failed = count('failed');
      if (!cancelled || !succeeded || !failed) return null;
      return t('event.rollout_detail.cancelled', { cancelled, succeeded, failed });
    }
    case 'rollout_completed': {
      const succeeded = count('succeeded');
      const failed = count('failed');
      const skipped = count('skipped');
      if (!succeeded || !failed || !skipped) return null;
      return t('event.rollout_detail.completed', { succeeded, failed, skipped });
    }
    default:
      return null;
  }
}

/** A flowbox's update: "To 5.0.0: failed (install failed)". */
function updateDetail(fields: readonly string[], t: TFunction): string | null {
  const [state, version, reason] = fields;
  if (!state || !version) return null;
  return reason
    ? t('event.firmware_detail_reason', {
        version,
        state: fieldLabel(state, t),
        reason: fieldLabel(reason, t),
      })
    : t('event.firmware_detail', { version, state: fieldLabel(state, t) });
}
