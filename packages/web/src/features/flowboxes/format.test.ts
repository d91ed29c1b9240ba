import { describe, expect, it } from 'vitest';
import { en as coreEn } from '../../lib/i18n/en.ts';
import { featuresEn } from '../../lib/i18n/features.ts';
import { featuresFr } from '../../lib/i18n/features-fr.ts';
import { fr as coreFr } from '../../lib/i18n/fr.ts';
import type { CommandStatus, Flowbox, FlowboxCommand, FlowboxCommandName } from '@flowbox/shared';
import {
  clockState,
  durationParts,
  formatReading,
  offeredCommands,
  pendingCommand,
  switchState,
} from './format.ts';

const en = { ...coreEn, ...featuresEn };
const fr = { ...coreFr, ...featuresFr };

describe('the device clock line of the flowbox page', () => {
  it('says on time within 5 s, else ahead or behind, and nothing before a first reading', () => {
    expect(clockState(null)).toBe('unknown');
    expect(clockState(0)).toBe('on_time');
    expect(clockState(-2)).toBe('on_time');
    expect(clockState(5)).toBe('on_time');
    expect(clockState(6)).toBe('ahead');
    expect(clockState(-45)).toBe('behind');
  });

  it('tells the size of the error in its two largest units, without a trailing zero', () => {
    expect(durationParts(0)).toEqual([[0, 's']]);
    expect(durationParts(-45)).toEqual([[45, 's']]);
    expect(durationParts(192)).toEqual([
      [3, 'min'],
      [12, 's'],
    ]);
    expect(durationParts(120)).toEqual([[2, 'min']]);
    expect(durationParts(3_605)).toEqual([[1, 'h']]);
    expect(durationParts(-(4 * 86_400 + 5 * 3_600 + 59))).toEqual([
      [4, 'd'],
      [5, 'h'],
    ]);
  });

  it('has its words in English and French', () => {
    for (const key of [
      'flowbox.device_clock',
      'flowbox.clock.on_time',
      'flowbox.clock.ahead',
      'flowbox.clock.behind',
      'flowbox.clock.off_bound',
      'flowbox.meter_index',
      'flowbox.meter_index_none',
    ] as const) {
      expect(en[key]).toBeTruthy();
      expect(fr[key]).toBeTruthy();
      expect(fr[key]).not.toBe(en[key]);
    }
  });
});

describe('the meter index', () => {
  it('keeps the litres to the millilitre, with the language’s separators', () => {
    expect(formatReading(12_345.678, 'en', 3)).toBe('12,345.678');
    expect(formatReading(12_345.678, 'fr', 3)).toBe('12\u202f345,678');
    expect(formatReading(null, 'en', 3)).toBeNull();
  });
});

describe('the switches of a flowbox (valve, maintenance, leak detection)', () => {
  const command = (name: FlowboxCommandName, status: CommandStatus) =>
    ({ id: `${name}-${status}`, name, status }) as FlowboxCommand;

  it('offer only the command that changes the state, and both when the state is unknown', () => {
    expect(offeredCommands('valve', true)).toEqual(['valve_close']);
    expect(offeredCommands('valve', false)).toEqual(['valve_open']);
    expect(offeredCommands('valve', null)).toEqual(['valve_open', 'valve_close']);
    expect(offeredCommands('maintenance', false)).toEqual(['maintenance_on']);
    expect(offeredCommands('leak_detection', true)).toEqual(['leak_detection_off']);
  });

  it('read the valve as on when opened, and unknown before the device reported it', () => {
    const flowbox = { valve: 'closed', maintenance_mode: null, leak_detection_mode: true } as Flowbox;
    expect(switchState(flowbox, 'valve')).toBe(false);
    expect(switchState({ ...flowbox, valve: 'opened' }, 'valve')).toBe(true);
    expect(switchState({ ...flowbox, valve: null }, 'valve')).toBeNull();
    expect(switchState(flowbox, 'maintenance')).toBeNull();
    expect(switchState(flowbox, 'leak_detection')).toBe(true);
  });

  it("find the switch's newest command still on its way, not one answered or expired", () => {
    const list = [
      command('maintenance_on', 'sent'),
      command('valve_close', 'acked'),
      command('valve_open', 'pending'),
    ];
    expect(pendingCommand(list, 'valve')?.name).toBe('valve_close');
    expect(
      pendingCommand([command('valve_close', 'done'), command('valve_open', 'sent')], 'valve')?.name,
    ).toBe('valve_open');
    expect(pendingCommand([command('valve_close', 'expired')], 'valve')).toBeUndefined();
    expect(pendingCommand(list, 'leak_detection')).toBeUndefined();
  });
});
