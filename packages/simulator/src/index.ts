export { ManualClock, scaledClock, systemClock, type Clock } from './clock.ts';
export { deriveSeed, seededRandom, type Random } from './random.ts';
export {
  ConsumptionModel,
  expectedDailyVolume,
  FAULT_KINDS,
  faultFlowLpm,
  MODEL_MAX_FLOW_LPM,
  PROFILE_PATTERNS,
  WATER_POINT_USAGE,
  type FaultKind,
  type FaultSpec,
  type WaterPointSpec,
  type ZoneSpec,
} from './consumption.ts';
export {
  createDevice,
  CredentialsRefusedError,
  PairingRefusedError,
  SimulatedFlowbox,
  type DeviceCredentials,
  type DeviceNotices,
  type DeviceOptions,
} from './device.ts';
export {
  FIRMWARE_FAULT_KINDS,
  firmwareFaultsBySerial,
  serialsCarrying,
  type FirmwareFault,
  type FirmwareFaultKind,
  type FleetFirmwareFault,
} from './firmware-faults.ts';
export { createFleet, type Fleet, type FleetOptions, type FleetStats, type OfflinePeriod } from './fleet.ts';
export { pastReadings, type PastReading, type PastReadingsOptions } from './history.ts';
