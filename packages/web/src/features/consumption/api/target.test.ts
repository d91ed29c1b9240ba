import { describe, expect, it } from 'vitest';
import { scopeOf, targetCovers, targetPath } from './target.ts';

const origin = { customer_id: 'c1', site_id: 's1', building_id: 'b1', zone_id: 'z1' };

describe('consumption targets', () => {
  it('names the scope by the deepest id and builds its API path', () => {
    expect(scopeOf({ customerId: 'c1' })).toBe('customer');
    expect(targetPath({ customerId: 'c1', siteId: 's1' })).toBe('/customers/c1/sites/s1');
    expect(scopeOf({ customerId: 'c1', siteId: 's1', buildingId: 'b1' })).toBe('building');
    expect(targetPath({ customerId: 'c1', siteId: 's1', buildingId: 'b1', zoneId: 'z1' })).toBe(
      '/customers/c1/sites/s1/buildings/b1/zones/z1',
    );
  });

  it('lets new readings in a zone move the zone and every scope above it, and nothing else', () => {
    expect(targetCovers({ customerId: 'c1' }, origin)).toBe(true);
    expect(targetCovers({ customerId: 'c1', siteId: 's1' }, origin)).toBe(true);
    expect(targetCovers({ customerId: 'c1', siteId: 's1', buildingId: 'b1' }, origin)).toBe(true);
    expect(targetCovers({ customerId: 'c1', siteId: 's1', buildingId: 'b1', zoneId: 'z1' }, origin)).toBe(
      true,
    );
    expect(targetCovers({ customerId: 'c1', siteId: 's1', buildingId: 'b1', zoneId: 'z2' }, origin)).toBe(
      false,
    );
    expect(targetCovers({ customerId: 'c1', siteId: 's2' }, origin)).toBe(false);
    expect(targetCovers({ customerId: 'c2' }, origin)).toBe(false);
  });
});
