/**
 * Texts of an end user's zone home (issue 18: the person in the flat when the leak alert
 * arrives), in English (the source); French in fr/myzone.ts. Plain words, no jargon.
 */
export const myzoneEn = {
  'myzone.kicker': 'My home',
  'myzone.where': '{{building}} · {{site}}',
  'myzone.where_floor': '{{building}}, {{floor}} · {{site}}',
  'myzone.open_home': 'Open my zone',
  'myzone.open_home_named': 'Open {{name}}',
  'myzone.not_yours': 'This zone is not one of yours.',

  'myzone.alert_title': 'Alert: {{category}}',
  'myzone.alert_more': 'And {{count}} other open alerts.',
  'myzone.alert_since': 'Since {{date}}',
  'myzone.what_to_do': 'What to do now',
  'myzone.advice.leakage_detection':
    'Water may be leaking. Look under sinks, around the toilet, the water heater and the washing machine. If you see water, close the water (button below, or the main tap), wipe it up and call your building manager or a plumber.',
  'myzone.advice.abnormal_water_consumption_no_ac':
    'Much more water than usual is running. Check that no tap is open and no toilet keeps flowing. If you find nothing, close the water and call your building manager.',
  'myzone.advice.abnormal_water_consumption_with_ac':
    'The water was closed automatically because much more than usual was running. Check for a leak or a tap left open before opening it again; if in doubt, call your building manager.',
  'myzone.advice.water_temperature':
    'The water temperature is outside its safe range. Be careful with hot water and tell your building manager.',
  'myzone.advice.flowbox_internal_status':
    'The water meter reports a problem inside the device. Nothing to do on your side: your building manager is told.',
  'myzone.advice.flowbox_dysfunction':
    'The water meter is not working properly. Your water is not watched for leaks meanwhile: tell your building manager.',
  'myzone.advice.flowbox_communication':
    'The water meter has stopped reporting. Check that it has power; leaks are not watched until it reports again.',
  'myzone.advice.maintenance':
    'Maintenance is under way on your water meter. Water may be cut for a short time.',

  'myzone.valve_title': 'Water',
  'myzone.valve_open': 'Water is on',
  'myzone.valve_closed': 'Water is off',
  'myzone.valve_unknown': 'Water state not known',
  'myzone.valve_locked': 'Closed by automatic closing: it stays closed until someone opens it.',
  'myzone.offline': 'The device is offline since {{since}}: the state shown may be old.',
  'myzone.offline_never': 'The device has never reported yet.',
  'myzone.no_device': 'No water meter is fitted in your zone yet.',
  'myzone.no_control':
    'You cannot open or close the water from here. Ask your building manager if you need this permission.',

  'myzone.today': 'Today',
  'myzone.today_volume': 'Water used',
  'myzone.today_cost': 'Cost',
  'myzone.yesterday': 'Yesterday: {{value}}',
  'myzone.graph_empty': 'No water used in this period',
  'myzone.graph_empty_hint': 'Your water meter’s readings appear here within seconds of water running.',
  'myzone.graph_empty_no_device': 'Readings will appear here once a water meter is fitted in your zone.',

  'myzone.leak_title': 'Leak detection mode',
  'myzone.leak_on':
    'On: any water that runs in your zone raises a leak alert, until you turn it off. It does not close the water.',
  'myzone.leak_off':
    'Off: water runs as usual. Water that runs {{hours}} hours without stopping still raises a leak alert. Turned on, any water that runs raises one until you turn it off; for a trip, away mode above does it on its dates.',
  'myzone.leak_turn_on': 'Turn leak detection on',
  'myzone.leak_turn_off': 'Turn leak detection off',
  'myzone.leak_confirm_off_title': 'Turn leak detection off?',
  'myzone.leak_confirm_off_text':
    'Water may run again without an alert; only water that runs {{hours}} hours without stopping raises a leak alert.',
  'myzone.leak_confirm_on_title': 'Turn leak detection on?',
  'myzone.leak_confirm_on_text':
    'While you are away, any water that runs in your zone raises a leak alert. It does not close the water.',
  'myzone.leak_saved': 'Leak detection updated',
  // Issue 33: who or what closed the water, and the way to the alerts of the home.
  'myzone.closed_since': 'Off since {{date}}, {{by}}.',
  'myzone.closed_by.person': 'closed by {{name}}',
  'myzone.closed_by.automatic_closing': 'closed by automatic closing',
  'myzone.closed_by.schedule': 'closed by a scheduled closing',
  'myzone.closed_by.away_mode': 'closed by away mode',
  'myzone.closed_by.device': 'closed by hand on the device',
  'myzone.closed_by.unknown': 'closed',
  'myzone.all_alerts': 'My alerts',
  'myzone.alert_history': 'My past alerts',
} as const;
