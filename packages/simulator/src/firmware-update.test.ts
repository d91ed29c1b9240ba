import { describe, expect, it } from 'vitest';
import { progressDue } from './firmware-update.ts';

describe('download progress events', () => {
  const size = 2_000_000;
  const last = { bytes: 400_000, at: 1_000_000 };

  it('are due each 5 % of the image', () => {
    expect(progressDue(last, 499_999, last.at + 1000, size)).toBe(false);
    expect(progressDue(last, 500_000, last.at + 1000, size)).toBe(true);
  });

  it('are due after 10 s when bytes came meanwhile, however few', () => {
    expect(progressDue(last, 400_001, last.at + 9_999, size)).toBe(false);
    expect(progressDue(last, 400_001, last.at + 10_000, size)).toBe(true);
    expect(progressDue(last, 400_000, last.at + 60_000, size)).toBe(false);
  });
});
