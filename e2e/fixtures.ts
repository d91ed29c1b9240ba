import { createDevice, type DeviceOptions, type SimulatedFlowbox } from '@flowbox/simulator';
import { vi } from 'vitest';
import { baseUrl, DEMO, mqttUrl, signedIn, type Api } from './browser.ts';

type VolumeUnit = 'm3' | 'liter';

/**
 * The demo site where tests add their buildings, by name: never "the first site", which is whichever
 * another test file's site sorts first (a site named with markup, from the map's test, once did).
 */
const DEMO_TEST_SITE = 'Grenoble Residence';

/** A site of the demo customer (Grenoble Residence unless told): its path, the same in the API and the web app. */
export async function customerSite(asCustomer: Api, name = DEMO_TEST_SITE): Promise<string> {
  const me = await asCustomer<{ customer_id: string }>('GET', '/users/me');
  const sites = await asCustomer<{ items: { id: string; name: string }[] }>(
    'GET',
    `/customers/${me.customer_id}/sites/list?search=${encodeURIComponent(name)}`,
  );
  const site = sites.items.find((s) => s.name === name);
  if (!site) throw new Error(`no site ${name} for ${me.customer_id}`);
  return `/customers/${me.customer_id}/sites/${site.id}`;
}

/** A new building on the demo customer's Grenoble site: Lyon, m³ (unless told) and euros, weeks from Monday. */
export async function createBuilding(
  asCustomer: Api,
  name: string,
  volumeUnit: VolumeUnit = 'm3',
): Promise<{ site: string; buildingId: string; zonesApi: string }> {
  const site = await customerSite(asCustomer);
  const building = await asCustomer<{ id: string }>('POST', `${site}/buildings/create`, {
    name,
    type: 'office',
    address: '2 place Bellecour',
    city: 'Lyon',
    zipCode: '69002',
    country: 'FR',
    timezone: 'Europe/Paris',
    volume_unit: volumeUnit,
    currency: 'EUR',
    first_day_of_week: 'monday',
  });
  return { site, buildingId: building.id, zonesApi: `${site}/buildings/${building.id}/zones` };
}

export type ZoneOptions = {
  /** The building's volume unit, and its plan's: m³ unless told. */
  volumeUnit?: VolumeUnit;
  /** The zone's profile, and its simulated flowbox's: office unless told. */
  profile?: 'office' | 'housing';
  /** The building's name: "<label> test building" unless told. */
  buildingName?: string;
};

export type TestZone = {
  name: string;
  /** The zone's API path. */
  api: string;
  /** The zone's page in the web app. */
  page: string;
  profile: NonNullable<ZoneOptions['profile']>;
};

export type SubscribedZone = TestZone & { planId: string };

/** "<label> test zone": a one-inch cold-water zone in a building of its own ("<label> test building"). */
export async function testZone(label: string, options: ZoneOptions = {}): Promise<TestZone> {
  const { volumeUnit = 'm3', profile = 'office', buildingName = `${label} test building` } = options;
  const asCustomer = signedIn(DEMO.customer);
  const { site, buildingId, zonesApi } = await createBuilding(asCustomer, buildingName, volumeUnit);
  const name = `${label} test zone`;
  const zone = await asCustomer<{ id: string }>('POST', `${zonesApi}/create`, {
    name,
    profile,
    flowbox_model: 'one_inch_v1',
    water_temperature: 'cold',
  });
  return {
    name,
    api: `${zonesApi}/${zone.id}`,
    page: `${site}/building/${buildingId}/zone/${zone.id}`,
    profile,
  };
}

/**
 * A test zone (see testZone) subscribed to a new plan, "<label> test plan", at €3.50 per m³ (per
 * litre: 0.0035), since pairing needs a subscription (spec §5).
 */
export async function subscribedZone(label: string, options: ZoneOptions = {}): Promise<SubscribedZone> {
  const { volumeUnit = 'm3' } = options;
  const zone = await testZone(label, options);
  const plan = await signedIn(DEMO.provider)<{ id: string }>('POST', '/pricing_plans/create', {
    name: `${label} test plan`,
    is_default: false,
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'pay_as_you_go_fee',
    currency: 'EUR',
    volume_unit: volumeUnit,
    from_date: '2026-01-01',
    ranges: [{ volume_start: '0', volume_end: null, price_per_unit: volumeUnit === 'm3' ? '3.5' : '0.0035' }],
  });
  await signedIn(DEMO.customer)('PUT', `${zone.api}/subscription/update`, {
    pricing_plan_id: plan.id,
    service_level: 'basic',
  });
  return { ...zone, planId: plan.id };
}

type DeviceChoice = Pick<DeviceOptions, 'serial' | 'factorySecret'> &
  Partial<Omit<DeviceOptions, 'serial' | 'factorySecret' | 'brokerUrl'>> & {
    /** The floor of the zone's building it is fitted on (spec §3 floor "paired flowbox"). */
    floorId?: string;
  };

/**
 * Pairs a simulated flowbox of the zone's kind (its profile, one inch, cold water) through the API — the pairing
 * screens have their own browser test. It comes back paired, not yet reporting: `start()` it.
 */
export async function pairSimulatedDevice(
  zone: SubscribedZone,
  device: DeviceChoice,
): Promise<{ simulated: SimulatedFlowbox; flowboxId: string; flowboxApi: string }> {
  const asCustomer = signedIn(DEMO.customer);
  const { id } = await asCustomer<{ id: string }>('POST', `${zone.api}/flowboxes/pair`, {
    serial: device.serial,
    factory_secret: device.factorySecret,
    ...(device.floorId ? { floor_id: device.floorId } : {}),
  });
  const simulated = createDevice({
    brokerUrl: mqttUrl(),
    zone: { profile: zone.profile, water_points: [], timezone: 'Europe/Paris' },
    model: 'one_inch_v1',
    waterTemperature: 'cold',
    pairingRetryMs: 1000,
    ...withoutFloor(device),
  });
  const paired = simulated.pair();
  const flowboxApi = `${zone.api}/flowboxes/${id}`;
  await vi.waitFor(
    async () => {
      const { pairing_state } = await asCustomer<{ pairing_state: string }>('GET', `${flowboxApi}/info`);
      if (pairing_state !== 'pending') throw new Error(`pairing ${pairing_state}`);
    },
    { timeout: 15_000, interval: 250 },
  );
  await asCustomer('POST', `${flowboxApi}/validate`);
  await paired;
  return { simulated, flowboxId: id, flowboxApi };
}

const withoutFloor = ({ floorId: _floorId, ...device }: DeviceChoice) => device;

/**
 * An end user of the zones, invited by the demo customer's manager in `language`, whose password is
 * set by the emailed link (as a resident does): its id and email.
 */
export async function invitedResident(
  zoneIds: string[],
  { language, password, firstname = 'Rosa' }: { language: 'en' | 'fr'; password: string; firstname?: string },
): Promise<{ id: string; email: string; customerId: string }> {
  const asCustomer = signedIn(DEMO.customer);
  const customerId = (await asCustomer<{ customer_id: string }>('GET', '/users/me')).customer_id;
  const email = `${firstname.toLowerCase()}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;
  const { id } = await asCustomer<{ id: string }>('POST', `/customers/${customerId}/end_users/create`, {
    firstname,
    lastname: 'Resident',
    email,
    language,
    zone_id: zoneIds,
  });
  const outbox = await signedIn(DEMO.provider)<{ items: { to: string; text: string }[] }>('GET', '/outbox');
  const link = outbox.items
    .find((m) => m.to === email)
    ?.text.match(/https?:\/\/\S+\/set-password\?token=\S+/)?.[0];
  if (!link) throw new Error(`no invitation for ${email}`);
  const answer = await fetch(`${baseUrl()}/v1/users/set_password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: new URL(link).searchParams.get('token'), password }),
  });
  if (answer.status !== 200) throw new Error(`set_password for ${email}: ${answer.status}`);
  return { id, email, customerId };
}
