import { describe, expect, it } from 'vitest';
import { freePort } from './harness.ts';

describe('freePort', () => {
  // A test asks several in a row (PORT, MQTT_PORT, METRICS_PORT): the system may answer the port it
  // just released again, which once made a server refuse its own configuration in CI.
  it('never answers a port it already gave in this process', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 1000; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
