import type { automationEn } from '../automation.ts';

export const automationFr: Record<keyof typeof automationEn, string> = {
  'automation.title': 'Fermeture automatique',
  'automation.description':
    "Ferme l'eau quand un écoulement dure trop longtemps ou débite trop : une pause de 2 minutes sans débit termine un écoulement.",
  'automation.state': 'Fermeture automatique',
  'automation.enabled': "Ferme l'eau",
  'automation.alert_only': 'Alertes seulement',
  'automation.disabled': 'Désactivée',
  'automation.volume_margin': 'Marge de volume',
  'automation.duration_margin': 'Marge de durée',
  'automation.minutes': '{{count}} min',
  'automation.margin_off': 'Non vérifiée',
  'automation.margin_now_set': '{{now}} en ce moment (réglée : {{set}})',
  'automation.margins_reason.off_hours':
    'En dehors des heures d’ouverture en ce moment : les marges sont divisées par deux jusqu’à l’ouverture de la zone, telles que la détection les applique.',
  'automation.margins_reason.open':
    'Dans les heures d’ouverture en ce moment ; en dehors, les marges sont divisées par deux.',
  'automation.margins_reason.round_the_clock':
    'Les mêmes jour et nuit : l’eau coule à toute heure dans ce type de zone.',
  'automation.margins_reason.no_hours': 'Les mêmes à toute heure : la zone n’a pas d’heures d’ouverture.',
  'automation.current_flow': 'Écoulement en cours',
  'automation.no_flow': "Pas d'eau qui coule",
  'automation.flow_value': '{{volume}} en {{minutes}} min depuis {{since}}',
  'automation.last_flow': 'Dernier écoulement',
  'automation.flow_stopped': '{{volume}} en {{minutes}} min à partir du {{since}}, arrêté le {{stopped}}',
  'automation.blocked_until':
    'La détection des volumes anormaux est suspendue jusqu’au {{time}} (après une sortie)',
  'automation.edit': 'Modifier les marges',
  'automation.form_title': 'Marges de fermeture automatique',
  'automation.enable': "Fermer l'eau automatiquement",
  'automation.enable_hint':
    "Désactivée : un écoulement anormal déclenche seulement une alerte. Activée : l'eau est fermée et la zone verrouillée jusqu'à ce que quelqu'un sorte du mode.",
  'automation.volume_enable': 'Vérifier le volume de chaque écoulement',
  'automation.volume_label': 'Marge de volume ({{unit}})',
  'automation.volume_hint': 'Entre {{min}} et {{max}} {{unit}}',
  'automation.duration_enable': 'Vérifier la durée de chaque écoulement',
  'automation.duration_label': 'Marge de durée (minutes)',
  'automation.duration_hint': 'Entre {{min}} et {{max}} minutes',
  'automation.off_hours_hint':
    "En dehors des heures d'ouverture les marges sont divisées par deux, sauf pour les zones logement, hôtellerie, santé, industrie, refroidissement et arrosage.",
  'automation.save': 'Enregistrer les marges',
  'automation.saved': 'Marges de fermeture automatique enregistrées',
  'automation.locked_title': "Fermeture automatique déclenchée : l'eau est fermée",
  'automation.locked_body':
    "Un écoulement a dépassé la marge de {{trigger}} le {{time}}. Aucune action n'est autorisée sur cette zone tant que personne ne sort de la fermeture automatique.",
  'automation.trigger.volume': 'volume',
  'automation.trigger.duration': 'durée',
  'automation.close_confirmed': 'Le flowbox a confirmé la fermeture le {{time}}.',
  'automation.close_pending': 'En attente de la confirmation de fermeture du flowbox…',
  'automation.exit': 'Sortir de la fermeture automatique',
  'automation.exit_irreversible':
    "Cette action est irréversible : la zone est déverrouillée et les volumes anormaux ne seront pas détectés pendant une heure. La vanne reste fermée jusqu'à ce que vous l'ouvriez.",
  'automation.exit_type_name': 'Pour confirmer, saisissez le nom de la zone :',
  'automation.exit_name_label': 'Nom de la zone',
  'automation.exited': 'Sortie de la fermeture automatique : la zone est déverrouillée',
  'event.action.automatic_closing_updated':
    '{{who}} a modifié les marges de fermeture automatique de {{what}}',
  'event.action.automatic_closing_triggered': "La fermeture automatique a fermé l'eau de {{what}}",
  'event.action.automatic_closing_exited': '{{who}} est sorti de la fermeture automatique sur {{what}}',
  'event.action_name.automatic_closing_updated': 'Marges de fermeture automatique modifiées',
  'event.action_name.automatic_closing_triggered': 'Fermeture automatique déclenchée',
  'event.action_name.automatic_closing_exited': 'Sortie de la fermeture automatique',
  'event.field.volume': 'marge de volume dépassée',
  'event.field.duration': 'marge de durée dépassée',
  'event.field.automatic_closing_enabled': 'fermeture automatique',
  'event.field.volume_margin_enabled': 'marge de volume activée',
  'event.field.volume_margin': 'marge de volume',
  'event.field.duration_margin_enabled': 'marge de durée activée',
  'event.field.duration_margin_minutes': 'marge de durée',
};
