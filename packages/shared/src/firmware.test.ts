import { describe, expect, it } from 'vitest';
import {
  compareFirmwareVersions,
  firmwareFileName,
  firmwareNameMatches,
  parseFirmwareFileName,
  waveBreachesThreshold,
  waveSizes,
} from './firmware.ts';

describe('firmware image names (docs/firmware.md)', () => {
  it('read the models and the version', () => {
    expect(parseFirmwareFileName('flowbox-one_inch_v1-2.5.0.bin')).toEqual({
      models: ['one_inch_v1'],
      version: '2.5.0',
    });
    expect(parseFirmwareFileName('flowbox-half_inch_v1+two_inches_v1-10.0.12.bin')).toEqual({
      models: ['half_inch_v1', 'two_inches_v1'],
      version: '10.0.12',
    });
  });

  it.each([
    'flowbox-one_inch_v1-2.5.bin',
    'flowbox-one_inch_v1-02.5.0.bin',
    'flowbox-one_inch_v2-2.5.0.bin',
    'flowbox-one_inch_v1+one_inch_v1-2.5.0.bin',
    'flowbox-one_inch_v1-2.5.0.img',
    'Flowbox-one_inch_v1-2.5.0.bin',
    '../flowbox-one_inch_v1-2.5.0.bin',
    'flowbox--2.5.0.bin',
  ])('refuse %s', (name) => {
    expect(parseFirmwareFileName(name)).toBeNull();
  });

  it('match the declared models in any order and the exact version', () => {
    const declared = { models: ['two_inches_v1', 'half_inch_v1'] as const, version: '2.5.0' };
    expect(firmwareNameMatches('flowbox-half_inch_v1+two_inches_v1-2.5.0.bin', declared)).toBe(true);
    expect(firmwareNameMatches('flowbox-half_inch_v1-2.5.0.bin', declared)).toBe(false);
    expect(firmwareNameMatches('flowbox-half_inch_v1+two_inches_v1-2.5.1.bin', declared)).toBe(false);
    expect(firmwareFileName(declared.models, declared.version)).toBe(
      'flowbox-half_inch_v1+two_inches_v1-2.5.0.bin',
    );
  });

  it('order versions by number, not by text', () => {
    expect(compareFirmwareVersions('2.10.0', '2.9.3')).toBeGreaterThan(0);
    expect(compareFirmwareVersions('1.0.0', '1.0.0')).toBe(0);
    expect(compareFirmwareVersions('0.9.9', '1.0.0')).toBeLessThan(0);
  });
});

describe('rollout waves', () => {
  it('hold at least one device each, the last all that remain', () => {
    expect(waveSizes(500, [5, 25, 50, 100])).toEqual([25, 100, 125, 250]);
    expect(waveSizes(3, [5, 25, 50, 100])).toEqual([1, 1, 1]);
    expect(waveSizes(1, [5, 100])).toEqual([1]);
    expect(waveSizes(10, [10, 30])).toEqual([1, 9]);
    expect(waveSizes(0, [5, 100])).toEqual([]);
  });

  it('halt when failures pass the threshold share of the wave', () => {
    expect(waveBreachesThreshold(2, 25, 5)).toBe(true);
    expect(waveBreachesThreshold(1, 25, 5)).toBe(false);
    expect(waveBreachesThreshold(1, 25, 0)).toBe(true);
    expect(waveBreachesThreshold(0, 25, 0)).toBe(false);
  });
});
