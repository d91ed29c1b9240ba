import type { peopleEn } from '../people.ts';

export const peopleFr: Record<keyof typeof peopleEn, string> = {
  'nav.users': 'Utilisateurs',
  'people.title': 'Utilisateurs',
  'people.description':
    'Toutes les personnes ayant accès à ce que vous gérez : gestionnaires, utilisateurs finaux et plombiers, avec leur rôle, leur dernière connexion et leur statut.',
  'people.search': 'Rechercher par nom ou e-mail',
  'people.role_filter': 'Rôle',
  'people.all_roles': 'Tous les rôles',
  'people.caption': 'Utilisateurs que vous gérez',
  'people.role': 'Rôle',
  'people.customer': 'Client',
  'people.places': 'Sites ou zones',
  'people.provider': 'Flovea (fournisseur)',
  'people.never': 'Jamais connecté',
  'people.actions': 'Actions',
  'people.edit': 'Modifier',
  'people.permissions': 'Permissions',
  'people.edit_of': 'Modifier {{name}}',
  'people.permissions_of': 'Permissions de {{name}}',
  'people.you': 'Vous',
  'people.your_profile': 'Votre profil',
  'people.empty': 'Personne n’a encore accès.',
  'people.empty_hint': 'Ajoutez un gestionnaire, ou remettez un code d’activation aux utilisateurs finaux.',
  'people.no_match': 'Personne ne correspond à cette recherche ou à ce rôle.',
  'people.count_one': '{{count}} personne',
  'people.count_other': '{{count}} personnes',
  'people.create': 'Ajouter un utilisateur',
  'people.create_flovea_manager': 'Gestionnaire Flovea',
  'people.create_customer_manager': 'Gestionnaire client',
  'people.create_site_manager': 'Gestionnaire de site (choisir d’abord un site)',
  'people.create_customer_people': 'Personnes d’un client (choisir d’abord un client)',
  'people.create_end_user': 'Utilisateur final ou plombier (codes d’activation et inscriptions)',

  'settings.language_title': 'Langue',
  'settings.language_hint': 'La langue de vos écrans et des e-mails qui vous sont envoyés.',
  'settings.language_saved': 'Langue enregistrée.',
  'settings.channels_title': 'Canaux de notification',
  'settings.channels_intro': 'Flowbox Manager vous signale les alertes de ces façons :',
  'settings.channel_screen': 'À l’écran',
  'settings.channel_screen_detail':
    'Toujours actif : chaque alerte de ce que vous gérez apparaît en direct dans Notifications et alertes et dans le compteur de la cloche.',
  'settings.channel_screen_link': 'Ouvrir les notifications',
  'settings.channel_screen_end_user':
    'Toujours actif : une alerte de votre zone apparaît en direct sur sa page, en premier, avec ce qu’il faut faire, et dans Notifications et alertes avec le compteur de la cloche.',
  'settings.channel_email': 'Par e-mail',
  'settings.channel_email_detail':
    'Par catégorie d’alerte, avec les interrupteurs ci-dessous ; une zone peut avoir les siens.',
  'settings.channel_email_provider':
    'Les gestionnaires Flovea ne reçoivent pas d’e-mail ; les catégories ci-dessous décident de ce qui est envoyé aux gestionnaires clients et de site.',
  'settings.channel_email_end_user': 'Par catégorie d’alerte, avec les interrupteurs ci-dessous.',
  'settings.channel_email_plumber':
    'Les plombiers ne reçoivent pas d’alertes par e-mail : celles de vos sites sont dans Notifications et alertes.',
  'settings.channels_none': 'Il n’y a pas de SMS.',
  'settings.channels_none_push':
    'Il n’y a pas de SMS, et les alertes n’arrivent en notification sur les téléphones que pour les personnes que leurs e-mails atteignent.',
  'settings.channel_push': 'Notifications sur vos appareils',
  'settings.channel_push_detail':
    'Les alertes critiques, en quelques secondes, sur chaque téléphone ou ordinateur où vous les activez (ci-dessous).',
};
