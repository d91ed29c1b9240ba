// What a flowbox is and reports (spec §3, §4): below both the HTTP contract (api/) and the device
// protocol (protocol/), which import it.

/** spec §3 flowbox models: the pipe size the zone's device is made for. */
export const FLOWBOX_MODELS = ['half_inch_v1', 'one_inch_v1', 'two_inches_v1'] as const;
export type FlowboxModel = (typeof FLOWBOX_MODELS)[number];

/** spec §3 "hot or cold water": the water the zone's flowbox measures. */
export const WATER_TEMPERATURES = ['cold', 'hot'] as const;
export type WaterTemperature = (typeof WATER_TEMPERATURES)[number];

/** spec §4 valve states; the device reports it, commands change it (devices issue). */
export const VALVE_STATES = ['opened', 'closed'] as const;
export type ValveState = (typeof VALVE_STATES)[number];
