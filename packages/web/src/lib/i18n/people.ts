/** Texts of the people screen (`/users`, issue 18), in English (the source); French in fr/. */
export const peopleEn = {
  'nav.users': 'Users',
  'people.title': 'Users',
  'people.description':
    'Everyone with access to what you manage: managers, end users and plumbers, with their role, last sign-in and status.',
  'people.search': 'Search by name or email',
  'people.role_filter': 'Role',
  'people.all_roles': 'All roles',
  'people.caption': 'Users you manage',
  'people.role': 'Role',
  'people.customer': 'Customer',
  'people.places': 'Sites or zones',
  'people.provider': 'Flovea (provider)',
  'people.never': 'Never signed in',
  'people.actions': 'Actions',
  'people.edit': 'Edit',
  'people.permissions': 'Permissions',
  'people.edit_of': 'Edit {{name}}',
  'people.permissions_of': 'Permissions of {{name}}',
  'people.you': 'You',
  'people.your_profile': 'Your profile',
  'people.empty': 'No one has access yet.',
  'people.empty_hint': 'Add a manager, or hand out a claim code to end users.',
  'people.no_match': 'No one matches this search or role.',
  'people.count_one': '{{count}} person',
  'people.count_other': '{{count}} people',
  'people.create': 'Add a user',
  'people.create_flovea_manager': 'Flovea manager',
  'people.create_customer_manager': 'Customer manager',
  'people.create_site_manager': 'Site manager (choose a site first)',
  'people.create_customer_people': 'People of a customer (choose a customer first)',
  'people.create_end_user': 'End user or plumber (claim codes and registrations)',

  // The user's own settings page (`/settings`): its language and the notification channels.
  'settings.language_title': 'Language',
  'settings.language_hint': 'The language of your screens and of the emails sent to you.',
  'settings.language_saved': 'Language saved.',
  'settings.channels_title': 'Notification channels',
  'settings.channels_intro': 'Flowbox Manager tells you about alerts in these ways:',
  'settings.channel_screen': 'On screen',
  'settings.channel_screen_detail':
    'Always on: every alert of what you manage appears live in Notifications and alerts and in the bell’s count.',
  'settings.channel_screen_link': 'Open the notifications',
  'settings.channel_screen_end_user':
    'Always on: an alert of your zone appears live on its page, first, with what to do now, and in Notifications and alerts with the bell’s count.',
  'settings.channel_email': 'By email',
  'settings.channel_email_detail': 'Per alert category, with the switches below; a zone may have its own.',
  'settings.channel_email_provider':
    'Provider managers are not emailed; the categories below decide what is emailed to customer and site managers.',
  'settings.channel_email_end_user': 'Per alert category, with the switches below.',
  'settings.channel_email_plumber':
    'Plumbers are not emailed alerts: those of your sites are in Notifications and alerts.',
  'settings.channels_none': 'There are no text messages (SMS).',
  'settings.channels_none_push':
    'There are no text messages (SMS), and alerts reach phones as notifications only for the people their emails reach.',
  'settings.channel_push': 'Notifications on your devices',
  'settings.channel_push_detail':
    'Critical alerts, within seconds, on each phone or computer where you turn them on (below).',
} as const;
