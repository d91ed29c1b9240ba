import { clockSkewAlarming, clockSkewMs, PAIRING_STEP, type Flowbox } from '@flowbox/shared';
import type { LocatedFlowbox } from '../db/scope.ts';

/*
 * A flowbox as the API and the live messages show it (docs/devices.md). Here, beside the device
 * link, so that flowboxes and telemetry (whose batches send a flowbox's new figures live) both take
 * it and neither imports the other.
 */

const numberOrNull = (value: string | null): number | null => (value === null ? null : Number(value));

/** The device clock's skew in whole seconds, positive when ahead (`+ 0` turns a -0 into 0). */
const skewSeconds = (offsetMs: number | null): number | null =>
  offsetMs === null ? null : Math.round(clockSkewMs(offsetMs) / 1000) + 0;
const isoOrNull = (value: Date | null): string | null => value?.toISOString() ?? null;

/** The API form of a flowbox row placed in its zone. */
export function toApiFlowbox({ flowbox: f, scope }: LocatedFlowbox): Flowbox {
  return {
    id: f.id,
    serial: f.serial,
    customer_id: scope.customerId,
    site_id: scope.siteId,
    building_id: scope.buildingId,
    zone_id: scope.zoneId,
    floor_id: f.floorId,
    pairing_state: f.pairingState,
    pairing_step: PAIRING_STEP[f.pairingState],
    paired_at: isoOrNull(f.pairedAt),
    model: f.model,
    water_temperature: f.waterTemperature,
    connection: f.connected ? 'connected' : f.connectionChangedAt ? 'disconnected' : 'never',
    connection_since: isoOrNull(f.connectionChangedAt),
    last_seen_at: isoOrNull(f.lastSeenAt),
    temperature: numberOrNull(f.temperature),
    humidity: numberOrNull(f.humidity),
    flow_lpm: numberOrNull(f.flowLpm),
    flowmeter_index_l: numberOrNull(f.flowmeterIndexL),
    clock_skew_s: skewSeconds(f.clockOffsetMs),
    clock_skew_alarming: clockSkewAlarming(f.clockOffsetMs),
    valve: f.valve,
    maintenance_mode: f.maintenanceMode,
    leak_detection_mode: f.leakDetectionMode,
    network_interface: f.networkInterface,
    network_address: f.networkAddress,
    network_gateway: f.networkGateway,
    wifi_ssid: f.wifiSsid,
    esp_version: f.espVersion,
    board_version: f.boardVersion,
    firmware_version: f.firmwareVersion,
    created_at: f.createdAt.toISOString(),
  };
}
