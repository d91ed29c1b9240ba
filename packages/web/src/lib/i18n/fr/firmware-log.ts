import type { firmwareLogEn } from '../firmware-log.ts';

export const firmwareLogFr: Record<keyof typeof firmwareLogEn, string> = {
  'event.object.firmware_image': 'l’image de firmware « {{label}} »',
  'event.noun.firmware_image': 'image de firmware',
  'event.object_name.firmware_image': 'Image de firmware',
  'event.action.deprecated': '{{who}} a déprécié {{what}}',
  'event.action.withdrawn': '{{who}} a retiré {{what}}',
  'event.action_name.deprecated': 'Dépréciée',
  'event.action_name.withdrawn': 'Retirée',
  'event.field.released_to': 'diffusée à',
  'event.field.notes_en': 'notes de version (anglais)',
  'event.field.notes_fr': 'notes de version (français)',
  'event.field.status': 'statut',
};
