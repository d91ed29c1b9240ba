import {
  ALL_FIRMWARE_UPDATE_STATES,
  FIRMWARE_FAILURE_REASONS,
  FIRMWARE_IMAGE_STATUSES,
  FIRMWARE_SKIP_REASONS,
  ROLLOUT_ACTIONS,
  ROLLOUT_HALT_REASONS,
  ROLLOUT_STATES,
} from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { en as coreEn } from '../../lib/i18n/en.ts';
import { featuresEn } from '../../lib/i18n/features.ts';
import { featuresFr } from '../../lib/i18n/features-fr.ts';
import { fr as coreFr } from '../../lib/i18n/fr.ts';
import { STATE_GROUPS } from './format.ts';

/* Every state, reason and status the firmware API can answer is named in English and in French. */

type Dictionary = Record<string, string | undefined>;
// The firmware screens' texts load with the signed-in screens (features.ts), the rest with the shell.
const en = { ...coreEn, ...featuresEn };
const fr = { ...coreFr, ...featuresFr };
const both = (key: string) => {
  expect((en as Dictionary)[key], `${key} (en)`).toBeTruthy();
  expect((fr as Dictionary)[key], `${key} (fr)`).toBeTruthy();
};

describe('firmware texts in English and French', () => {
  it.each(ALL_FIRMWARE_UPDATE_STATES)(
    'names the %s update state on screens and in the activity log',
    (state) => {
      both(`firmware.state.${state}`);
      both(`event.field.${state}`);
    },
  );

  it.each([...FIRMWARE_FAILURE_REASONS, ...FIRMWARE_SKIP_REASONS])(
    'says why in plain words: %s',
    (reason) => {
      both(`firmware.reason.${reason}`);
    },
  );

  // docs/firmware.md "Activity log": a failed or skipped update's line names its reason (waiting for
  // the opening hours to end is no state change, so no line).
  it.each(
    [...FIRMWARE_FAILURE_REASONS, ...FIRMWARE_SKIP_REASONS].filter((r) => r !== 'waiting_opening_hours'),
  )('names the reason %s in the activity log', (reason) => {
    both(`event.field.${reason}`);
  });

  it.each(ROLLOUT_HALT_REASONS)('explains a rollout halted for %s', (reason) => {
    both(`firmware.halt_reason.${reason}`);
  });

  it('names rollout states, image statuses, state groups and the user controls', () => {
    for (const state of ROLLOUT_STATES) both(`firmware.rollout_state.${state}`);
    for (const status of FIRMWARE_IMAGE_STATUSES) both(`firmware.image_status.${status}`);
    for (const group of STATE_GROUPS) both(`firmware.group.${group}`);
    for (const action of ROLLOUT_ACTIONS)
      for (const suffix of ['', '_title', '_text', '_done']) both(`firmware.action.${action}${suffix}`);
  });

  it('writes the activity log’s firmware update line', () => {
    both('event.action.firmware_update');
    both('event.action_name.firmware_update');
  });
});
