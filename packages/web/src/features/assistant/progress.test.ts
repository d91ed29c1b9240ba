import { describe, expect, it } from 'vitest';
import { parseProgress, progressSearch, reachable, type AssistantProgress } from './progress.ts';

const SITE = '0b9b1c2e-1111-4a6b-9c1d-000000000001';
const BUILDING = '0b9b1c2e-2222-4a6b-9c1d-000000000002';
const ZONE = '0b9b1c2e-3333-4a6b-9c1d-000000000003';
const parse = (query: string) => parseProgress(new URLSearchParams(query));

describe('assistant progress in the address', () => {
  it('starts at the site step with nothing chosen', () => {
    expect(parse('')).toEqual({ step: 'site' });
  });

  it('round-trips through the address at every step', () => {
    const runs: AssistantProgress[] = [
      { step: 'building', siteId: SITE },
      { step: 'floors', siteId: SITE, buildingId: BUILDING },
      { step: 'zone', siteId: SITE, buildingId: BUILDING },
      { step: 'water-points', siteId: SITE, buildingId: BUILDING, zoneId: ZONE },
      { step: 'done', siteId: SITE, buildingId: BUILDING, zoneId: ZONE },
    ];
    for (const run of runs) expect(parse(progressSearch(run))).toEqual(run);
  });

  it('resumes at the furthest step its records allow when no step is named', () => {
    expect(parse(`site=${SITE}&building=${BUILDING}`).step).toBe('floors');
    expect(parse(`site=${SITE}&building=${BUILDING}&zone=${ZONE}`).step).toBe('water-points');
  });

  it('never jumps past a step whose record is missing', () => {
    expect(parse(`step=done&site=${SITE}`)).toEqual({ step: 'building', siteId: SITE });
    expect(reachable('zone', { step: 'site', siteId: SITE })).toBe(false);
  });

  it('ignores ids that are not uuids and later ids without the earlier ones', () => {
    expect(parse(`site=1%20OR%201=1&building=${BUILDING}`)).toEqual({ step: 'site' });
    expect(parse(`step=unknown&site=${SITE}&zone=${ZONE}`)).toEqual({ step: 'building', siteId: SITE });
  });
});
