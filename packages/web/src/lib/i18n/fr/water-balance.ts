import type { waterBalanceEn } from '../water-balance.ts';

export const waterBalanceFr: Record<keyof typeof waterBalanceEn, string> = {
  'balance.title': 'Bilan d’eau',
  'balance.intro':
    'L’eau mesurée par l’alimentation principale face à la somme des compteurs des zones : ce qu’aucune zone n’a mesuré est de l’eau non comptabilisée (une fuite sur les canalisations, ou de l’eau utilisée là où aucun flowbox ne mesure).',
  'balance.view': 'Afficher le bilan',
  'balance.by_night': 'Par nuit',
  'balance.by_hour': 'Par heure',
  'balance.by_night_hint': 'Les 14 dernières nuits, 00:00–05:00',
  'balance.by_hour_hint': 'Chaque heure des 2 derniers jours',
  'balance.no_main_supply': 'Aucun compteur d’alimentation principale n’est choisi pour ce bâtiment',
  'balance.no_main_supply_manager':
    'Choisissez ci-dessous la zone dont le flowbox mesure l’eau qui entre dans le bâtiment.',
  'balance.no_main_supply_reader':
    'Un gestionnaire du bâtiment peut choisir la zone dont le flowbox mesure l’eau qui entre dans le bâtiment.',
  'balance.no_data': 'Aucun relevé sur cette période pour le moment.',
  'balance.loading': 'Chargement du bilan d’eau…',
  'balance.main_supply': 'Alimentation principale',
  'balance.zones': 'Somme des zones',
  'balance.unaccounted': 'Non comptabilisée',
  'balance.status': 'Relevés',
  'balance.complete': 'Complets',
  'balance.incomplete': 'Manquants de {{serials}}',
  'balance.not_counted': 'non comptée',
  'balance.night_of': 'Nuit du {{date}}',
  'balance.totals':
    'Sur les heures complètes : {{unaccounted}} non comptabilisés sur les {{main}} passés par l’alimentation principale ({{share}})',
  'balance.totals_none':
    'Aucune heure complète pour le moment : une heure compte quand tous les compteurs y ont envoyé un relevé.',
  'balance.left_out_one':
    '{{count}} heure écartée : il y manque le relevé d’un compteur, elle n’est donc jamais comptée comme une perte.',
  'balance.left_out_other':
    '{{count}} heures écartées : il y manque le relevé d’un compteur, elles ne sont donc jamais comptées comme une perte.',
  'balance.caption_night': 'Bilan d’eau des 14 dernières nuits, 00:00–05:00 (heure {{timezone}}), en litres',
  'balance.caption_hour': 'Bilan d’eau par heure, 2 derniers jours (heure {{timezone}}), en litres',
  'balance.period': 'Période',
  'balance.settings': 'Alimentation principale et alerte',
  'balance.main_supply_zone': 'Zone du compteur de l’alimentation principale',
  'balance.main_supply_none': 'Aucune (pas de bilan d’eau)',
  'balance.main_supply_hint':
    'Son flowbox mesure toute l’eau qui entre dans le bâtiment. Cette zone est exclue des totaux de consommation du bâtiment, pour qu’aucun litre ne compte deux fois.',
  'balance.alert_liters': 'Alerte à partir de (litres par nuit)',
  'balance.alert_share': 'ou à partir de (% de l’alimentation principale)',
  'balance.alert_hint':
    'Chaque nuit (00:00–05:00) est jugée une heure après sa fin : une alerte de fuite sur la zone de l’alimentation principale tant que les nuits restent au-dessus, résolue par une nuit en dessous. Une nuit où un compteur manque n’est jamais comptée comme une perte. Laissez les deux vides pour ne pas être alerté.',
  'balance.save': 'Enregistrer',
  'balance.saved': 'Réglages du bilan d’eau enregistrés',
  'event.field.main_supply_zone_id': 'alimentation principale',
  'event.field.alert_liters_per_night': 'alerte d’eau non comptabilisée (litres)',
  'event.field.alert_share_pct': 'alerte d’eau non comptabilisée (%)',
};
