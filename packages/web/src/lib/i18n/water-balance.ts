/** UI texts of a building's water balance (main supply against its zones), EN (source) and FR. */
export const waterBalanceEn = {
  'balance.title': 'Water balance',
  'balance.intro':
    'The water the main supply measured against the sum of the zones’ meters: what no zone measured is unaccounted (a leak on the pipes, or water used where no flowbox measures).',
  'balance.view': 'Show the balance',
  'balance.by_night': 'By night',
  'balance.by_hour': 'By hour',
  'balance.by_night_hint': 'The last 14 nights, 00:00–05:00',
  'balance.by_hour_hint': 'Every hour of the last 2 days',
  'balance.no_main_supply': 'No main supply meter is set for this building',
  'balance.no_main_supply_manager':
    'Choose below the zone whose flowbox measures the water entering the building.',
  'balance.no_main_supply_reader':
    'A manager of the building can choose the zone whose flowbox measures the water entering the building.',
  'balance.no_data': 'No reading in this period yet.',
  'balance.loading': 'Loading the water balance…',
  'balance.main_supply': 'Main supply',
  'balance.zones': 'Sum of the zones',
  'balance.unaccounted': 'Unaccounted',
  'balance.status': 'Readings',
  'balance.complete': 'Complete',
  'balance.incomplete': 'Missing from {{serials}}',
  'balance.not_counted': 'not counted',
  'balance.night_of': 'Night of {{date}}',
  'balance.totals':
    'Over the complete hours: {{unaccounted}} unaccounted of the {{main}} through the main supply ({{share}})',
  'balance.totals_none': 'No complete hour yet: an hour counts once every meter has reported in it.',
  'balance.left_out_one':
    '{{count}} hour left out: a meter’s reading is missing from it, so it is never counted as a loss.',
  'balance.left_out_other':
    '{{count}} hours left out: a meter’s reading is missing from them, so they are never counted as a loss.',
  'balance.caption_night': 'Water balance of the last 14 nights, 00:00–05:00 ({{timezone}} time), in litres',
  'balance.caption_hour': 'Water balance by hour, last 2 days ({{timezone}} time), in litres',
  'balance.period': 'Period',
  'balance.settings': 'Main supply and alert',
  'balance.main_supply_zone': 'Zone of the main supply meter',
  'balance.main_supply_none': 'None (no water balance)',
  'balance.main_supply_hint':
    'Its flowbox measures all the water entering the building. This zone is left out of the building’s consumption totals, so no litre counts twice.',
  'balance.alert_liters': 'Alert from (litres a night)',
  'balance.alert_share': 'or from (% of the main supply)',
  'balance.alert_hint':
    'Each night (00:00–05:00) is judged an hour after it ends: one leak alert on the main supply zone while nights stay above, resolved by a night below. A night where a meter is missing is never counted as a loss. Leave both empty for no alert.',
  'balance.save': 'Save',
  'balance.saved': 'Water balance settings saved',
  'event.field.main_supply_zone_id': 'main supply',
  'event.field.alert_liters_per_night': 'unaccounted-water alert (litres)',
  'event.field.alert_share_pct': 'unaccounted-water alert (%)',
};
