/** UI texts of notifications on a device (Web Push, docs/push.md "The web app"), EN (source) and FR. */
export const pushEn = {
  'push.title': 'Notifications on this device',
  'push.intro':
    'Critical alerts (water closed automatically, a burst, a leak, a flowbox that fails) appear on this phone or computer within seconds, even when the app is closed, with buttons to close the water, say it was you, or snooze them for an hour. Emails keep coming as set below.',
  'push.checking': 'Checking what this browser allows…',
  'push.state_on': 'Notifications are on for this browser.',
  'push.state_off': 'Notifications are off for this browser.',
  'push.state_blocked':
    'This browser blocks notifications from Flowbox Manager. Allow them in the browser’s site settings (the icon left of the address), then come back here.',
  'push.state_unsupported':
    'This browser cannot receive notifications. Use a recent Chrome, Edge, Firefox or Safari, or Flowbox Manager added to the Home Screen of an iPhone or iPad.',
  'push.state_ios':
    'On iPhone and iPad, notifications reach Flowbox Manager only once it is on the Home Screen: in Safari, tap Share, then Add to Home Screen, open Flowbox Manager from its new icon, and turn notifications on here.',
  'push.enable': 'Turn notifications on',
  'push.disable': 'Turn notifications off',
  'push.enabled_toast': 'Notifications are on for this browser',
  'push.disabled_toast': 'Notifications are off for this browser',
  'push.denied': 'Notifications were not allowed: the browser asked, and they were refused.',
  'push.others': 'Your other browsers receiving notifications',
  'push.others_none': 'No other browser receives your notifications.',
  'push.added': 'Added {{date}}',
  'push.last_success': 'last notification {{date}}',
  'push.remove': 'Remove',
  'push.remove_label': 'Remove {{label}}',
  'push.removed_toast': '{{label}} no longer receives notifications',
  'notify.title': 'How you are told',
  'notify.intro':
    'Choose, for critical alerts and for the others, how each channel tells you. A channel kept “if not opened” is used only when you have not opened the alert {{minutes}} minutes after it was raised (tapping its notification or seeing it on screen opens it). A critical alert that nobody has opened after {{twice}} minutes goes to the managers of its zone.',
  'notify.severity.critical': 'Critical alerts',
  'notify.severity_hint.critical':
    'Water closed automatically, a burst or abnormal consumption, a leak, a valve that fails: they ignore quiet hours.',
  'notify.severity.other': 'Other alerts',
  'notify.severity_hint.other':
    'Temperature, communication, maintenance, the flowbox’s own state: they can wait for the end of your quiet hours.',
  'notify.channel.push': 'Notifications on your devices',
  'notify.channel.email': 'Email',
  'notify.timing.now': 'At once',
  'notify.timing.unopened': 'If not opened within {{minutes}} min',
  'notify.timing.off': 'Never',
  'notify.quiet_title': 'Quiet hours',
  'notify.quiet_on': 'Hold back alerts that can wait during these hours (time zone {{zone}})',
  'notify.quiet_hint':
    'What is raised in your quiet hours reaches you when they end; critical alerts always go at once.',
  'notify.quiet_start': 'From',
  'notify.quiet_end': 'Until',
  'notify.save': 'Save how I am told',
  'notify.saved': 'Saved: this is how you will be told.',
} as const;
