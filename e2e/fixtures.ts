import { createDevice, type DeviceOptions, type SimulatedFlowbox } from '@flowbox/simulator';
import { vi } from 'vitest';
import { DEMO, mqttUrl, signedIn, type Api } from './browser.ts';

/** A new building on the demo customer's first site: Lyon, m³ and euros, weeks from Monday. */
export async function createBuilding(
  asCustomer: Api,
  name: string,
): Promise<{ site: string; buildingId: string; zonesApi: string }> {
  const me = await asCustomer<{ customer_id: string }>('GET', '/users/me');
  const sites = await asCustomer<{ items: { id: string }[] }>(
    'GET',
    `/customers/${me.customer_id}/sites/list`,
  );
  const site = `/customers/${me.customer_id}/sites/${sites.items[0]!.id}`;
  const building = await asCustomer<{ id: string }>('POST', `${site}/buildings/create`, {
    name,
    type: 'office',
    address: '2 place Bellecour',
    city: 'Lyon',
    zipCode: '69002',
    country: 'FR',
    timezone: 'Europe/Paris',
    volume_unit: 'm3',
    currency: 'EUR',
    first_day_of_week: 'monday',
  });
  return { site, buildingId: building.id, zonesApi: `${site}/buildings/${building.id}/zones` };
}

export type SubscribedZone = {
  name: string;
  /** The zone's API path. */
  api: string;
  /** The zone's page in the web app. */
  page: string;
  planId: string;
};

/**
 * "<label> test zone": a one-inch cold-water office zone in a building of its own, subscribed to a
 * new plan at €3.50 per m³, since pairing needs a subscription (spec §5).
 */
export async function subscribedZone(label: string): Promise<SubscribedZone> {
  const asCustomer = signedIn(DEMO.customer);
  const asProvider = signedIn(DEMO.provider);
  const { site, buildingId, zonesApi } = await createBuilding(asCustomer, `${label} test building`);
  const name = `${label} test zone`;
  const zone = await asCustomer<{ id: string }>('POST', `${zonesApi}/create`, {
    name,
    profile: 'office',
    flowbox_model: 'one_inch_v1',
    water_temperature: 'cold',
  });
  const plan = await asProvider<{ id: string }>('POST', '/pricing_plans/create', {
    name: `${label} test plan`,
    is_default: false,
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'pay_as_you_go_fee',
    currency: 'EUR',
    volume_unit: 'm3',
    from_date: '2026-01-01',
    ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '3.5' }],
  });
  await asCustomer('PUT', `${zonesApi}/${zone.id}/subscription/update`, {
    pricing_plan_id: plan.id,
    service_level: 'basic',
  });
  return {
    name,
    api: `${zonesApi}/${zone.id}`,
    page: `${site}/building/${buildingId}/zone/${zone.id}`,
    planId: plan.id,
  };
}

type DeviceChoice = Pick<DeviceOptions, 'serial' | 'factorySecret'> &
  Partial<Omit<DeviceOptions, 'serial' | 'factorySecret' | 'brokerUrl'>>;

/**
 * Pairs a simulated flowbox of the zone's kind (one inch, cold water) through the API — the pairing
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
  });
  const simulated = createDevice({
    brokerUrl: mqttUrl(),
    zone: { profile: 'office', water_points: [], timezone: 'Europe/Paris' },
    model: 'one_inch_v1',
    waterTemperature: 'cold',
    pairingRetryMs: 1000,
    ...device,
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
