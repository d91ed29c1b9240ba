import { ALL_FIRMWARE_UPDATE_STATES } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { formatPercent, formatSize, groupCounts, groupOf, stateTone, targetLabel } from './format.ts';

describe('firmware states as the screens group them', () => {
  it('puts each of the twelve states in one group', () => {
    expect(Object.fromEntries(ALL_FIRMWARE_UPDATE_STATES.map((s) => [s, groupOf(s)]))).toEqual({
      scheduled: 'waiting',
      requested: 'running',
      requesting: 'running',
      started: 'running',
      downloaded: 'running',
      success: 'success',
      failed: 'failed',
      invalid_naming: 'failed',
      timeout: 'failed',
      block_download_failed: 'failed',
      skipped: 'left_out',
      cancelled: 'left_out',
    });
  });

  it('sums a rollout’s counts per group, every group present', () => {
    expect(
      groupCounts({
        scheduled: 40,
        started: 3,
        downloaded: 2,
        success: 50,
        timeout: 1,
        failed: 2,
        skipped: 4,
      }),
    ).toEqual({
      waiting: 40,
      running: 5,
      success: 50,
      failed: 3,
      left_out: 4,
    });
    expect(groupCounts({})).toEqual({ waiting: 0, running: 0, success: 0, failed: 0, left_out: 0 });
  });

  it('colours failures apart from successes', () => {
    expect(stateTone('timeout')).toBe('warn');
    expect(stateTone('success')).toBe('good');
    expect(stateTone('started')).toBe('accent');
  });
});

describe('sizes and percents in the user’s language', () => {
  it('writes megabytes in English and mégaoctets in French', () => {
    expect(formatSize(2.5 * 1024 * 1024, 'en')).toBe('2.5 MB');
    expect(formatSize(2.5 * 1024 * 1024, 'fr')).toMatch(/^2,5\sMo$/);
    expect(formatSize(2048, 'en')).toBe('2 kB');
    expect(formatSize(12, 'en')).toBe('12 byte');
  });

  it('rounds percents to whole numbers', () => {
    expect(formatPercent(42.4, 'en')).toBe('42%');
    expect(formatPercent(10, 'fr')).toMatch(/^10\s%$/);
  });
});

describe('a rollout target', () => {
  const place = { customer_id: null, site_id: null, building_id: null, zone_id: null, label: 'Fleet' };
  it('says the whole fleet in the reader’s words, and a place by its names', () => {
    expect(targetLabel(place, 'Tout le parc')).toBe('Tout le parc');
    expect(
      targetLabel(
        { ...place, customer_id: '6f1c1e4e-5b0e-4c53-9d43-0c8e2a3b9a10', label: 'Acme' },
        'Tout le parc',
      ),
    ).toBe('Acme');
  });
});
