import { eq } from 'drizzle-orm';
import {
  ROLES,
  addBillingPeriods,
  localDate,
  nextRenewal,
  type OpeningHours,
  type PriceRange,
  type WaterPointType,
  type ZoneProfile,
} from '@flowbox/shared';
import { hashPassword } from '../auth/index.ts';
import { insertPlan, insertVersion } from '../billing/plans.repo.ts';
import { insertSubscription } from '../billing/subscriptions.repo.ts';
import type { Db } from '../db/client.ts';
import {
  appSettings,
  buildings,
  customers,
  floors,
  sites,
  waterPoints,
  zoneAutomation,
  zones,
} from '../db/schema.ts';
import { findUserByEmail, insertUser } from '../users/index.ts';
import { lockSeeding } from './seed.repo.ts';

/** The demo accounts listed in the README: one per role, sharing one password. */
export const DEMO_PASSWORD = 'flowbox-demo-1';
export const DEMO_ACCOUNTS = [
  {
    email: 'provider@demo.flowbox.local',
    role: ROLES.flovea_manager,
    firstname: 'Paula',
    lastname: 'Provider',
  },
  {
    email: 'customer@demo.flowbox.local',
    role: ROLES.customer_manager,
    firstname: 'Claire',
    lastname: 'Customer',
  },
  { email: 'site@demo.flowbox.local', role: ROLES.site_manager, firstname: 'Samuel', lastname: 'Site' },
] as const;

/** Demo data, seeded once: two customers so tenant scope can be seen at work. */
export async function seedDemo(db: Db, log: { info: (obj: object, msg: string) => void }): Promise<void> {
  const [done] = await db.select().from(appSettings).where(eq(appSettings.key, 'demo_seeded'));
  if (done) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const seeded = await db.transaction(async (tx) => {
    await lockSeeding(tx);
    const [doneMeanwhile] = await tx.select().from(appSettings).where(eq(appSettings.key, 'demo_seeded'));
    if (doneMeanwhile) return false;
    const [acme] = await tx
      .insert(customers)
      .values({
        name: 'Acme Water Services',
        subscriptionDate: '2026-01-15',
        operationsContact: { name: 'Olivia Ops', email: 'ops@acme.example', phone: '+33 1 23 45 67 89' },
        technicalContact: { name: 'Tom Tech', email: 'tech@acme.example', phone: '' },
        administrativeContact: null,
      })
      .returning();
    const [riverside] = await tx
      .insert(customers)
      .values({ name: 'Riverside Homes', subscriptionDate: '2026-03-01' })
      .returning();
    const acmeSites = await tx
      .insert(sites)
      .values([
        { customerId: acme!.id, name: 'Lyon Part-Dieu Campus' },
        { customerId: acme!.id, name: 'Grenoble Residence' },
      ])
      .returning();
    const [riversideSite] = await tx
      .insert(sites)
      .values({ customerId: riverside!.id, name: 'Riverside Court' })
      .returning();
    const planIds = new Map<string, string>();
    for (const plan of DEMO_PLANS) planIds.set(plan.country, await seedPlan(tx, plan));
    for (const building of DEMO_BUILDINGS) {
      const siteId = { lyon: acmeSites[0]!.id, grenoble: acmeSites[1]!.id, riverside: riversideSite!.id }[
        building.site
      ];
      await seedBuilding(tx, siteId, planIds.get(building.country)!, building);
    }
    for (const account of DEMO_ACCOUNTS) {
      const existing = await findUserByEmail(tx, account.email);
      if (existing) continue;
      await insertUser(
        tx,
        {
          ...account,
          username: account.email,
          passwordHash,
          customerId: account.role === ROLES.flovea_manager ? null : acme!.id,
          address: account.role === ROLES.flovea_manager ? null : '12 rue de la République, 69002 Lyon',
        },
        account.role === ROLES.site_manager ? [acmeSites[0]!.id] : [],
      );
    }
    await tx.insert(appSettings).values({ key: 'demo_seeded', value: true });
    return true;
  });
  if (seeded) log.info({}, 'demo data seeded');
}

const OFFICE_HOURS: OpeningHours = {
  monday: [{ start: '07:30', end: '19:00' }],
  tuesday: [{ start: '07:30', end: '19:00' }],
  wednesday: [{ start: '07:30', end: '19:00' }],
  thursday: [{ start: '07:30', end: '19:00' }],
  friday: [{ start: '07:30', end: '18:00' }],
  saturday: [],
  sunday: [],
};

type DemoZone = {
  name: string;
  floor: number | null;
  profile: ZoneProfile;
  waterTemperature: 'cold' | 'hot';
  serviceLevel: 'basic' | 'premium';
  /** Left without a simulated flowbox, for a newcomer to pair one (README "Demo fleet"). */
  leftToPair?: true;
  /** Automatic closing on (docs/automation.md), margins in the building's unit. */
  automaticClosing?: { volumeMargin: string; durationMinutes: number };
  points: { label: string; type: WaterPointType; location: string; flow: string }[];
};
type DemoBuilding = {
  site: 'lyon' | 'grenoble' | 'riverside';
  name: string;
  type: 'office' | 'residential';
  address: string;
  city: string;
  zipCode: string;
  country: string;
  timezone: string;
  volumeUnit: 'm3' | 'gallon';
  currency: 'EUR' | 'USD';
  pricePerUnit: string;
  openingHours: OpeningHours | null;
  floors: string[];
  zones: DemoZone[];
};

/** A small, plausible hierarchy so a newcomer sees buildings, floors, zones and water points at once. */
const DEMO_BUILDINGS: DemoBuilding[] = [
  {
    site: 'lyon',
    name: 'Tower A',
    type: 'office',
    address: '129 rue Servient',
    city: 'Lyon',
    zipCode: '69003',
    country: 'FR',
    timezone: 'Europe/Paris',
    volumeUnit: 'm3',
    currency: 'EUR',
    pricePerUnit: '3.52',
    openingHours: OFFICE_HOURS,
    floors: ['Ground floor', '1st floor', '2nd floor'],
    zones: [
      {
        name: 'Ground floor washrooms',
        floor: 0,
        profile: 'sanitary',
        waterTemperature: 'cold',
        serviceLevel: 'premium',
        // Sixty litres in one flow is a burst pipe, not a washroom (a flush is 5 to 9 litres);
        // the demo fleet's leaks close it now and then (src/demo/leaks.ts).
        automaticClosing: { volumeMargin: '0.06', durationMinutes: 30 },
        points: [
          { label: 'Toilet 1', type: 'toilet', location: 'Men’s washroom', flow: '6' },
          { label: 'Toilet 2', type: 'toilet', location: 'Women’s washroom', flow: '6' },
          { label: 'Hand basin', type: 'sink', location: 'Washroom hall', flow: '5' },
        ],
      },
      {
        name: 'Staff kitchen',
        floor: 1,
        profile: 'kitchen',
        waterTemperature: 'hot',
        serviceLevel: 'basic',
        points: [
          { label: 'Kitchen sink', type: 'sink', location: 'Kitchenette', flow: '8' },
          { label: 'Dishwasher', type: 'dishwasher', location: 'Kitchenette', flow: '10' },
          { label: 'Fridge water dispenser', type: 'fridge', location: 'Kitchenette', flow: '1.5' },
        ],
      },
      {
        name: '2nd floor offices',
        floor: 2,
        profile: 'office',
        waterTemperature: 'cold',
        serviceLevel: 'basic',
        leftToPair: true,
        points: [{ label: 'Toilet', type: 'toilet', location: 'Corridor', flow: '6' }],
      },
    ],
  },
  {
    site: 'grenoble',
    name: 'Résidence Les Alpes',
    type: 'residential',
    address: '4 avenue Alsace-Lorraine',
    city: 'Grenoble',
    zipCode: '38000',
    country: 'FR',
    timezone: 'Europe/Paris',
    volumeUnit: 'm3',
    currency: 'EUR',
    pricePerUnit: '4.1',
    openingHours: null,
    floors: ['Ground floor', '1st floor'],
    zones: [
      {
        name: 'Flat 101',
        floor: 1,
        profile: 'housing',
        waterTemperature: 'cold',
        serviceLevel: 'premium',
        points: [
          { label: 'Shower', type: 'shower', location: 'Bathroom', flow: '9' },
          { label: 'Toilet', type: 'toilet', location: 'Bathroom', flow: '6' },
          { label: 'Washing machine', type: 'washer', location: 'Kitchen', flow: '12' },
        ],
      },
      {
        name: 'Laundry room',
        floor: 0,
        profile: 'laundry',
        waterTemperature: 'cold',
        serviceLevel: 'basic',
        points: [{ label: 'Washer 1', type: 'washer', location: 'Basement', flow: '12' }],
      },
    ],
  },
  {
    site: 'riverside',
    name: 'Riverside Court',
    type: 'residential',
    address: '210 River Road',
    city: 'Portland',
    zipCode: '97201',
    country: 'US',
    timezone: 'America/Los_Angeles',
    volumeUnit: 'gallon',
    currency: 'USD',
    pricePerUnit: '0.012',
    openingHours: null,
    floors: ['Ground floor'],
    zones: [
      {
        name: 'Garden irrigation',
        floor: null,
        profile: 'irrigation',
        waterTemperature: 'cold',
        serviceLevel: 'basic',
        points: [{ label: 'Lawn sprinklers', type: 'watering', location: 'Front garden', flow: '20' }],
      },
    ],
  },
];

type DemoPlan = {
  name: string;
  country: string;
  currency: 'EUR' | 'USD';
  volumeUnit: 'm3' | 'gallon';
  ranges: PriceRange[];
};

/**
 * One default pricing plan per demo country (docs/billing.md), so every demo zone can hold the
 * subscription pairing needs (spec §5). Tiered like real water tariffs: the second range costs more.
 */
const DEMO_PLANS: DemoPlan[] = [
  {
    name: 'Eau France 2026',
    country: 'FR',
    currency: 'EUR',
    volumeUnit: 'm3',
    ranges: [
      { volume_start: '0', volume_end: '100', price_per_unit: '3.52' },
      { volume_start: '100', volume_end: null, price_per_unit: '4.1' },
    ],
  },
  {
    name: 'US Water 2026',
    country: 'US',
    currency: 'USD',
    volumeUnit: 'gallon',
    ranges: [
      { volume_start: '0', volume_end: '10000', price_per_unit: '0.012' },
      { volume_start: '10000', volume_end: null, price_per_unit: '0.015' },
    ],
  },
];

/**
 * Months of past consumption the demo zones hold before this one (src/demo/history.ts): two
 * years, so the year window's comparison with the twelve months before it is a whole year against
 * a whole year (13 months would leave it comparing with one month, "+500 %"), and every month has
 * its year-before match.
 */
export const DEMO_HISTORY_MONTHS = 24;

/** The demo's first day of history: the first of the month DEMO_HISTORY_MONTHS before today's. */
export function demoHistoryStart(today: string): string {
  return addBillingPeriods(`${today.slice(0, 7)}-01`, 'monthly', -DEMO_HISTORY_MONTHS);
}

async function seedPlan(tx: Db, demo: DemoPlan): Promise<string> {
  // The price holds from before any building's first day of history (a month of margin: the
  // buildings' todays may differ from UTC's), so every past month has its cost.
  const fromDate = addBillingPeriods(demoHistoryStart(localDate(new Date(), 'UTC')), 'monthly', -1);
  const plan = await insertPlan(tx, { name: demo.name, isDefault: true, regions: [demo.country] });
  await insertVersion(
    tx,
    {
      planId: plan.id,
      version: 1,
      fromDate,
      billingType: 'monthly',
      acquisitionType: 'pay_as_you_go_fee',
      currency: demo.currency,
      volumeUnit: demo.volumeUnit,
    },
    demo.ranges,
  );
  return plan.id;
}

/**
 * The zones of the first demo customer (Acme) that the demo fleet pairs a simulated flowbox to
 * (src/demo/fleet.ts): every one but the zone left for a newcomer to pair.
 */
export const DEMO_FLEET_ZONES: readonly { building: string; zone: string }[] = DEMO_BUILDINGS.filter(
  (building) => building.site !== 'riverside',
).flatMap((building) =>
  building.zones
    .filter((zone) => !zone.leftToPair)
    .map((zone) => ({ building: building.name, zone: zone.name })),
);

async function seedBuilding(tx: Db, siteId: string, planId: string, demo: DemoBuilding): Promise<void> {
  const [building] = await tx
    .insert(buildings)
    .values({
      siteId,
      name: demo.name,
      type: demo.type,
      address: demo.address,
      city: demo.city,
      zipCode: demo.zipCode,
      country: demo.country,
      nbfloor: demo.floors.length,
      timezone: demo.timezone,
      volumeUnit: demo.volumeUnit,
      currency: demo.currency,
      firstDayOfWeek: demo.country === 'US' ? 'sunday' : 'monday',
      weekend: ['saturday', 'sunday'],
      openingHours: demo.openingHours,
      pricePerUnit: demo.pricePerUnit,
    })
    .returning();
  const floorRows = await tx
    .insert(floors)
    // Floors are listed in the order they were added: one millisecond apart keeps them bottom-up.
    .values(
      demo.floors.map((label, index) => ({
        buildingId: building!.id,
        label,
        createdAt: new Date(Date.now() + index),
      })),
    )
    .returning();
  for (const zone of demo.zones) {
    const [row] = await tx
      .insert(zones)
      .values({
        buildingId: building!.id,
        floorId: zone.floor === null ? null : floorRows[zone.floor]!.id,
        name: zone.name,
        profile: zone.profile,
        serviceLevel: zone.serviceLevel,
        flowboxModel: 'one_inch_v1',
        waterTemperature: zone.waterTemperature,
        waterPointNumber: zone.points.length,
      })
      .returning();
    await tx.insert(waterPoints).values(
      zone.points.map((point) => ({
        zoneId: row!.id,
        label: point.label,
        type: point.type,
        location: point.location,
        nominalFlowLpm: point.flow,
      })),
    );
    if (zone.automaticClosing)
      await tx.insert(zoneAutomation).values({
        zoneId: row!.id,
        automaticClosingEnabled: true,
        volumeMarginEnabled: true,
        volumeMargin: zone.automaticClosing.volumeMargin,
        volumeMarginUnit: demo.volumeUnit,
        durationMarginEnabled: true,
        durationMarginMinutes: zone.automaticClosing.durationMinutes,
      });
    // Subscribed since the first day of the demo's history (src/demo/history.ts), so its costs and
    // billing periods are there too, at the service level the zone row was given above (its copy
    // of the subscription's); renewed up to the building's today.
    const today = localDate(new Date(), demo.timezone);
    const startDate = demoHistoryStart(today);
    await insertSubscription(tx, {
      zoneId: row!.id,
      planId,
      serviceLevel: zone.serviceLevel,
      startDate,
      renewalDate: nextRenewal(startDate, 'monthly', today),
    });
  }
}
