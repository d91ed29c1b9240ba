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
