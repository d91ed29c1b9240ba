/** UI texts of the shell's shared screens (help, refusals, tables, outbox kinds), EN (source) and FR. */
export const shellEn = {
  'help.contents': 'Contents',
  'help.intro':
    'How Flowbox Manager works for each role, and how to do the main tasks. Each section can be opened from the contents.',
  'help.back_to_contents': 'Back to the contents',

  'forbidden.title': 'Access denied',
  'forbidden.text':
    'Your account may not open this page. If you think it should, ask a manager of your organisation.',
  'missing.title': 'Not found',
  'missing.text': 'What this page shows does not exist, or no longer does.',
  'common.back_dashboard': 'Back to the dashboard',

  'outbox.kind_invitation': 'Invitation',
  'outbox.kind_reset_password': 'Password reset',
  'outbox.kind_registration_exists': 'Registration with a known address',
  'outbox.kind_registration_confirm': 'Registration: address confirmation',
  'outbox.kind_registration_approved': 'Registration approved',
  'outbox.kind_registration_refused': 'Registration refused',
  'outbox.kind_alert': 'Alert',

  'table.scroll_hint': 'Scroll sideways to see every column',
} as const;

export const shellFr: Record<keyof typeof shellEn, string> = {
  'help.contents': 'Sommaire',
  'help.intro':
    'Comment Flowbox Manager fonctionne pour chaque rôle, et comment faire les tâches principales. Chaque section s’ouvre depuis le sommaire.',
  'help.back_to_contents': 'Retour au sommaire',

  'forbidden.title': 'Accès refusé',
  'forbidden.text':
    'Votre compte ne peut pas ouvrir cette page. Si vous pensez qu’il le devrait, demandez à un gestionnaire de votre organisation.',
  'missing.title': 'Introuvable',
  'missing.text': 'Ce que montre cette page n’existe pas, ou plus.',
  'common.back_dashboard': 'Retour au tableau de bord',

  'outbox.kind_invitation': 'Invitation',
  'outbox.kind_reset_password': 'Réinitialisation du mot de passe',
  'outbox.kind_registration_exists': 'Inscription avec une adresse connue',
  'outbox.kind_registration_confirm': 'Inscription : confirmation de l’adresse',
  'outbox.kind_registration_approved': 'Inscription approuvée',
  'outbox.kind_registration_refused': 'Inscription refusée',
  'outbox.kind_alert': 'Alerte',

  'table.scroll_hint': 'Faites défiler sur le côté pour voir toutes les colonnes',
};
