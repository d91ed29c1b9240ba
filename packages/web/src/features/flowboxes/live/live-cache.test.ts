import type { Flowbox, FlowboxCommand } from '@flowbox/shared';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { flowboxInfoKey } from '../api/get-flowbox.ts';
import { commandsKey } from '../api/list-commands.ts';
import { flowboxListKey } from '../../zones/index.ts';
import { applyLiveMessage, refOf, refreshAfterGap, withCommand } from './live-cache.ts';

// The key builders live beside their calls; the i18n set-up they pull in needs a browser.
vi.mock('../../../lib/i18n/index.ts', () => ({
  i18n: { t: (key: string) => key },
  currentLanguage: () => 'en',
}));

const ids = {
  customer_id: '1e0b4c8a-6a3f-4d2e-9a1b-2c3d4e5f6a7b',
  site_id: '2e0b4c8a-6a3f-4d2e-9a1b-2c3d4e5f6a7b',
  building_id: '3e0b4c8a-6a3f-4d2e-9a1b-2c3d4e5f6a7b',
  zone_id: '4e0b4c8a-6a3f-4d2e-9a1b-2c3d4e5f6a7b',
};

function flowbox(id: string, changes: Partial<Flowbox> = {}): Flowbox {
  return {
    id,
    serial: `FB-${id.slice(0, 4)}`,
    ...ids,
    floor_id: null,
    pairing_state: 'ready',
    pairing_step: 3,
    paired_at: '2026-01-05T10:03:00.000Z',
    model: 'one_inch_v1',
    water_temperature: 'cold',
    connection: 'connected',
    connection_since: '2026-01-05T10:04:00.000Z',
    last_seen_at: '2026-01-05T10:05:00.000Z',
    temperature: 12.5,
    humidity: 40,
    flow_lpm: 0,
    flowmeter_index_l: 100,
    clock_skew_s: 0,
    clock_skew_alarming: false,
    valve: 'opened',
    maintenance_mode: false,
    leak_detection_mode: false,
    network_interface: 'wifi',
    network_address: '10.0.0.2',
    network_gateway: '10.0.0.1',
    wifi_ssid: 'site',
    esp_version: '5.1.2',
    board_version: 'B3',
    firmware_version: '2.4.0',
    created_at: '2026-01-05T10:00:00.000Z',
    ...changes,
  };
}

function command(id: string, flowboxId: string, changes: Partial<FlowboxCommand> = {}): FlowboxCommand {
  return {
    id,
    flowbox_id: flowboxId,
    name: 'valve_close',
    params: {},
    status: 'sent',
    attempts: 1,
    issued_at: '2026-01-05T10:06:00.000Z',
    expires_at: '2026-01-05T10:08:00.000Z',
    completed_at: null,
    result: null,
    issued_by: null,
    ...changes,
  };
}

const A = 'aaaa0000-0000-4000-8000-000000000001';
const B = 'bbbb0000-0000-4000-8000-000000000002';
const C1 = 'cccc0000-0000-4000-8000-000000000001';
const C2 = 'cccc0000-0000-4000-8000-000000000002';

describe('live updates of the query cache', () => {
  let client: QueryClient;
  beforeEach(() => {
    client = new QueryClient();
  });

  it('replaces a flowbox shown on its screen and in its zone list', () => {
    const a = flowbox(A);
    client.setQueryData(flowboxInfoKey(refOf(a)), a);
    client.setQueryData(flowboxListKey(refOf(a)), { items: [a, flowbox(B)] });
    applyLiveMessage(client, { type: 'flowbox', flowbox: flowbox(A, { valve: 'closed' }) });
    expect(client.getQueryData<Flowbox>(flowboxInfoKey(refOf(a)))?.valve).toBe('closed');
    const list = client.getQueryData<{ items: Flowbox[] }>(flowboxListKey(refOf(a)));
    expect(list?.items.map((item) => [item.id, item.valve])).toEqual([
      [A, 'closed'],
      [B, 'opened'],
    ]);
  });

  it('refreshes the zone when its flowbox valve changes, not on every reading', () => {
    const a = flowbox(A);
    const zoneInfo = [...flowboxListKey(refOf(a)).slice(0, 8), 'info'];
    client.setQueryData(zoneInfo, { valve_state: 'opened' });
    client.setQueryData(flowboxInfoKey(refOf(a)), a);
    applyLiveMessage(client, { type: 'flowbox', flowbox: flowbox(A, { temperature: 13 }) });
    expect(client.getQueryState(zoneInfo)?.isInvalidated).toBe(false);
    applyLiveMessage(client, { type: 'flowbox', flowbox: flowbox(A, { temperature: 13, valve: 'closed' }) });
    expect(client.getQueryState(zoneInfo)?.isInvalidated).toBe(true);
  });

  it('adds a newly prepared flowbox to an open zone list, and caches nothing nobody opened', () => {
    const a = flowbox(A);
    client.setQueryData(flowboxListKey(refOf(a)), { items: [a] });
    applyLiveMessage(client, { type: 'flowbox', flowbox: flowbox(B, { pairing_state: 'init' }) });
    expect(client.getQueryData<{ items: Flowbox[] }>(flowboxListKey(refOf(a)))?.items).toHaveLength(2);
    expect(client.getQueryData(flowboxInfoKey(refOf(flowbox(B))))).toBeUndefined();
    const elsewhere = flowbox(A, { zone_id: '5e0b4c8a-6a3f-4d2e-9a1b-2c3d4e5f6a7b' });
    applyLiveMessage(client, { type: 'flowbox', flowbox: elsewhere });
    expect(client.getQueryData(flowboxListKey(refOf(elsewhere)))).toBeUndefined();
  });

  it('drops a removed flowbox from its zone list, whatever the building (the message does not name it)', () => {
    const a = flowbox(A);
    client.setQueryData(flowboxListKey(refOf(a)), { items: [a, flowbox(B)] });
    applyLiveMessage(client, {
      type: 'flowbox_removed',
      flowbox_id: A,
      customer_id: ids.customer_id,
      site_id: ids.site_id,
      zone_id: ids.zone_id,
    });
    expect(
      client.getQueryData<{ items: Flowbox[] }>(flowboxListKey(refOf(a)))?.items.map((f) => f.id),
    ).toEqual([B]);
  });

  it('moves a command through its states in the flowbox command list, newest first', () => {
    const ref = refOf(flowbox(A));
    client.setQueryData(commandsKey(ref), { items: [command(C1, A, { status: 'done' })] });
    const scope = { customer_id: ids.customer_id, site_id: ids.site_id, zone_id: ids.zone_id };
    applyLiveMessage(client, { type: 'command', command: command(C2, A), ...scope });
    applyLiveMessage(client, { type: 'command', command: command(C2, A, { status: 'acked' }), ...scope });
    applyLiveMessage(client, { type: 'command', command: command(C2, A, { status: 'done' }), ...scope });
    expect(
      client.getQueryData<{ items: FlowboxCommand[] }>(commandsKey(ref))?.items.map((c) => [c.id, c.status]),
    ).toEqual([
      [C2, 'done'],
      [C1, 'done'],
    ]);
    applyLiveMessage(client, { type: 'command', command: command(C1, B), ...scope });
    expect(client.getQueryData(commandsKey(refOf(flowbox(B))))).toBeUndefined();
  });

  it('after a gap re-reads flowboxes, their commands and zones, and nothing else', async () => {
    const ref = refOf(flowbox(A));
    const zoneInfo = [...flowboxListKey(ref).slice(0, 8), 'info'];
    const building = [
      'customers',
      ids.customer_id,
      'sites',
      ids.site_id,
      'buildings',
      ids.building_id,
      'info',
    ];
    for (const key of [flowboxInfoKey(ref), commandsKey(ref), flowboxListKey(ref), zoneInfo, building])
      client.setQueryData(key, { items: [] });
    await refreshAfterGap(client);
    const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect([flowboxInfoKey(ref), commandsKey(ref), flowboxListKey(ref), zoneInfo].map(invalidated)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(invalidated(building)).toBe(false);
  });

  it('keeps the command list to the 50 the server answers', () => {
    const items = Array.from({ length: 50 }, (_, i) =>
      command(`dddd0000-0000-4000-8000-${String(i).padStart(12, '0')}`, A),
    );
    const next = withCommand({ items }, command(C1, A));
    expect(next.items).toHaveLength(50);
    expect(next.items[0]?.id).toBe(C1);
  });
});
