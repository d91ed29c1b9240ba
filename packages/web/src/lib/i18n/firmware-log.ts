/** Activity-log texts of the firmware catalogue (docs/firmware.md "Catalogue"), EN (source) and FR. */
export const firmwareLogEn = {
  'event.object.firmware_image': 'the firmware image “{{label}}”',
  'event.noun.firmware_image': 'firmware image',
  'event.object_name.firmware_image': 'Firmware image',
  'event.action.deprecated': '{{who}} deprecated {{what}}',
  'event.action.withdrawn': '{{who}} withdrew {{what}}',
  'event.action_name.deprecated': 'Deprecated',
  'event.action_name.withdrawn': 'Withdrawn',
  'event.field.released_to': 'released to',
  'event.field.notes_en': 'release notes (English)',
  'event.field.notes_fr': 'release notes (French)',
  'event.field.status': 'status',
};

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
