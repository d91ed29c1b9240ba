import type { pushEn } from '../push.ts';

export const pushFr: Record<keyof typeof pushEn, string> = {
  'push.title': 'Notifications sur cet appareil',
  'push.intro':
    'Les alertes critiques (eau coupée automatiquement, rupture, fuite, flowbox défaillant) s’affichent sur ce téléphone ou cet ordinateur en quelques secondes, même l’application fermée, avec des boutons pour fermer l’eau, dire que c’était vous ou les reporter d’une heure. Les e-mails continuent selon les réglages ci-dessous.',
  'push.checking': 'Vérification de ce que permet ce navigateur…',
  'push.state_on': 'Les notifications sont activées pour ce navigateur.',
  'push.state_off': 'Les notifications sont désactivées pour ce navigateur.',
  'push.state_blocked':
    'Ce navigateur bloque les notifications de Flowbox Manager. Autorisez-les dans les réglages du site (l’icône à gauche de l’adresse), puis revenez ici.',
  'push.state_unsupported':
    'Ce navigateur ne peut pas recevoir de notifications. Utilisez un Chrome, Edge, Firefox ou Safari récent, ou Flowbox Manager ajouté à l’écran d’accueil d’un iPhone ou d’un iPad.',
  'push.state_ios':
    'Sur iPhone et iPad, les notifications n’arrivent à Flowbox Manager qu’une fois sur l’écran d’accueil : dans Safari, touchez Partager, puis Sur l’écran d’accueil, ouvrez Flowbox Manager depuis sa nouvelle icône et activez les notifications ici.',
  'push.enable': 'Activer les notifications',
  'push.disable': 'Désactiver les notifications',
  'push.enabled_toast': 'Les notifications sont activées pour ce navigateur',
  'push.disabled_toast': 'Les notifications sont désactivées pour ce navigateur',
  'push.denied':
    'Les notifications n’ont pas été autorisées : le navigateur l’a demandé, et elles ont été refusées.',
  'push.others': 'Vos autres navigateurs qui reçoivent les notifications',
  'push.others_none': 'Aucun autre navigateur ne reçoit vos notifications.',
  'push.added': 'Ajouté le {{date}}',
  'push.last_success': 'dernière notification le {{date}}',
  'push.remove': 'Retirer',
  'push.remove_label': 'Retirer {{label}}',
  'push.removed_toast': '{{label}} ne reçoit plus les notifications',
  'notify.title': 'Comment vous êtes averti',
  'notify.intro':
    'Choisissez, pour les alertes critiques et pour les autres, comment chaque canal vous avertit. Un canal gardé « si non ouverte » ne sert que si vous n’avez pas ouvert l’alerte {{minutes}} minutes après son déclenchement (toucher sa notification ou la voir à l’écran l’ouvre). Une alerte critique que personne n’a ouverte après {{twice}} minutes est transmise aux responsables de sa zone.',
  'notify.severity.critical': 'Alertes critiques',
  'notify.severity_hint.critical':
    'Eau coupée automatiquement, rupture ou consommation anormale, fuite, vanne défaillante : elles ignorent les heures calmes.',
  'notify.severity.other': 'Autres alertes',
  'notify.severity_hint.other':
    'Température, communication, maintenance, état du flowbox : elles peuvent attendre la fin de vos heures calmes.',
  'notify.channel.push': 'Notifications sur vos appareils',
  'notify.channel.email': 'E-mail',
  'notify.timing.now': 'Immédiatement',
  'notify.timing.unopened': 'Si non ouverte sous {{minutes}} min',
  'notify.timing.off': 'Jamais',
  'notify.quiet_title': 'Heures calmes',
  'notify.quiet_on': 'Retenir pendant ces heures les alertes qui peuvent attendre (fuseau horaire {{zone}})',
  'notify.quiet_hint':
    'Ce qui survient pendant vos heures calmes vous parvient à leur fin ; les alertes critiques partent toujours immédiatement.',
  'notify.quiet_start': 'De',
  'notify.quiet_end': 'À',
  'notify.save': 'Enregistrer ma façon d’être averti',
  'notify.saved': 'Enregistré : vous serez averti ainsi.',
};
