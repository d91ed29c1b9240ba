import type { LiveMessage } from '@flowbox/shared';

/** What a field of a pushed message must be: an id (a string), one that may be null, a number, a string, or an object with such fields. */
type Field = 'id' | 'id?' | 'number' | 'string' | Shape;
type Shape = { readonly [field: string]: Field };

/** An embedded record: its own id and the place it belongs to, which the caches file it under. */
const PLACED = { id: 'id', customer_id: 'id', site_id: 'id', zone_id: 'id' } as const;
const RECORD = { id: 'id' } as const;
const ZONE = { customer_id: 'id', site_id: 'id', zone_id: 'id' } as const;

/**
 * What the web app reads of each pushed message (LiveMessageSchema in @flowbox/shared): the type
 * and the fields the screens' caches use to find what a message changes. The live channel's
 * messages are trusted as much as the API's answers, which the app does not validate either: this
 * check drops what is not one of our messages (a message type newer than this build, a truncated
 * line) without the API's schemas and zod, which cost a phone a quarter of a second of its first
 * seconds (issue 16). `live-messages.test.ts` holds every field here to the schema's, so a valid
 * message is never dropped.
 */
export const LIVE_SHAPES = {
  flowbox: { flowbox: { ...PLACED, building_id: 'id' } },
  flowbox_removed: { flowbox_id: 'id', ...ZONE },
  command: { command: { id: 'id', flowbox_id: 'id' }, ...ZONE },
  consumption: {
    ...ZONE,
    building_id: 'id',
    readings: 'number',
    volume_ml: 'number',
    latest_measured_at: 'string',
  },
  automation: { automation: { zone_id: 'id' }, ...ZONE },
  schedule: { change: 'string', schedule_id: 'id?', ...ZONE, building_id: 'id' },
  alert: { alert: RECORD, ...ZONE },
  firmware_update: { update: { id: 'id', flowbox_id: 'id', rollout_id: 'id?' }, ...ZONE },
  firmware_rollout: { rollout_id: 'id', state: 'string', customer_id: 'id?', site_id: 'id?' },
} as const satisfies Record<LiveMessage['type'], Shape>;

export const LIVE_TYPES = Object.keys(LIVE_SHAPES) as LiveMessage['type'][];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function fits(value: unknown, field: Field): boolean {
  if (field === 'id') return typeof value === 'string' && value !== '';
  if (field === 'id?') return value === null || (typeof value === 'string' && value !== '');
  if (field === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (field === 'string') return typeof value === 'string';
  return isObject(value) && Object.entries(field).every(([name, inner]) => fits(value[name], inner));
}

/** A pushed message as the server sent it, or null when it is not one we understand. */
export function parseLiveMessage(data: string): LiveMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(message) || typeof message.type !== 'string' || !Object.hasOwn(LIVE_SHAPES, message.type))
    return null;
  const shape: Shape = LIVE_SHAPES[message.type as LiveMessage['type']];
  return fits(message, shape) ? (message as LiveMessage) : null;
}
