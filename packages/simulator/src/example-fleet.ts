import type { FleetFileEntry } from './cli.ts';

/**
 * The `fleet.json` that `flowbox-sim example-fleet` prints and the README shows (a test keeps them
 * equal): one device still to pair over the air with its factory secret (`--pair`), one already
 * paired with the credentials the server handed it. Every field a device entry may hold appears.
 */
export function exampleFleet(): FleetFileEntry[] {
  return [
    {
      serial: 'FB-EXAMPLE-0001',
      factory_secret: 'example-factory-secret-printed-on-the-label',
      profile: 'office',
      timezone: 'Europe/Paris',
      water_points: [
        { type: 'toilet', count: 2 },
        { type: 'sink', count: 2, nominal_flow_lpm: 5 },
      ],
      model: 'one_inch_v1',
      water_temperature: 'cold',
    },
    {
      serial: 'FB-EXAMPLE-0002',
      username: 'FB-EXAMPLE-0002',
      password: 'the-device-password-the-server-handed-out-when-paired',
      profile: 'housing',
      timezone: 'Europe/Paris',
      water_points: [{ type: 'shower' }, { type: 'toilet' }, { type: 'washer' }],
      model: 'half_inch_v1',
      water_temperature: 'hot',
    },
  ];
}
