import { ROLES, type Role } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { makeActor, placeScopeOf } from './access.ts';

/*
 * The one place scope every list reads by (fleet, alerts, dashboard, map, firmware catalogue
 * counts): never the absence of a condition for anyone but a provider manager, even for a user
 * whose customer is missing (docs/permissions.md).
 */
const actor = (role: Role, customerId: string | null, siteIds: string[] = [], zoneIds: string[] = []) =>
  makeActor(
    { id: 'u', firstname: 'A', lastname: 'B', role, customerId, language: 'en', permissions: {} },
    siteIds,
    's',
    zoneIds,
  );

const C = '11111111-1111-4111-8111-111111111111';
const S = '22222222-2222-4222-8222-222222222222';
const Z = '33333333-3333-4333-8333-333333333333';

describe('the place scope of an actor', () => {
  it('is everything for a provider manager only', () => {
    expect(placeScopeOf(actor(ROLES.flovea_manager, null))).toEqual({});
  });

  it('is a customer, its sites or its zones for everyone else', () => {
    expect(placeScopeOf(actor(ROLES.customer_manager, C))).toEqual({ customerId: C });
    expect(placeScopeOf(actor(ROLES.site_manager, C, [S]))).toEqual({ customerId: C, siteIds: [S] });
    expect(placeScopeOf(actor(ROLES.plumber, C, [S]))).toEqual({ customerId: C, siteIds: [S] });
    expect(placeScopeOf(actor(ROLES.end_user, C, [], [Z]))).toEqual({ customerId: C, zoneIds: [Z] });
  });

  it('names no customer at all, never every customer, for a user whose customer is missing', () => {
    for (const role of [ROLES.customer_manager, ROLES.site_manager, ROLES.plumber, ROLES.end_user]) {
      const scope = placeScopeOf(actor(role, null));
      expect(scope.customerId, String(role)).toMatch(/^0{8}-0{4}-0{4}-0{4}-0{12}$/);
    }
  });
});
