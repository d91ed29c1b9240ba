import type { myzoneEn } from '../myzone.ts';

export const myzoneFr: Record<keyof typeof myzoneEn, string> = {
  'myzone.kicker': 'Mon logement',
  'myzone.where': '{{building}} · {{site}}',
  'myzone.where_floor': '{{building}}, {{floor}} · {{site}}',
  'myzone.open_home': 'Ouvrir ma zone',
  'myzone.open_home_named': 'Ouvrir {{name}}',
  'myzone.not_yours': 'Cette zone n’est pas la vôtre.',

  'myzone.alert_title': 'Alerte : {{category}}',
  'myzone.alert_more': 'Et {{count}} autres alertes ouvertes.',
  'myzone.alert_since': 'Depuis le {{date}}',
  'myzone.what_to_do': 'Que faire maintenant',
  'myzone.advice.leakage_detection':
    'Il y a peut-être une fuite. Regardez sous les éviers, autour des toilettes, du chauffe-eau et du lave-linge. Si vous voyez de l’eau, coupez l’eau (bouton ci-dessous, ou robinet général), épongez et appelez votre gestionnaire ou un plombier.',
  'myzone.advice.abnormal_water_consumption_no_ac':
    'Beaucoup plus d’eau que d’habitude coule. Vérifiez qu’aucun robinet n’est ouvert et qu’aucune chasse d’eau ne fuit. Si vous ne trouvez rien, coupez l’eau et appelez votre gestionnaire.',
  'myzone.advice.abnormal_water_consumption_with_ac':
    'L’eau a été coupée automatiquement car beaucoup plus d’eau que d’habitude coulait. Cherchez une fuite ou un robinet resté ouvert avant de la rouvrir ; en cas de doute, appelez votre gestionnaire.',
  'myzone.advice.water_temperature':
    'La température de l’eau sort de sa plage normale. Attention à l’eau chaude, et prévenez votre gestionnaire.',
  'myzone.advice.flowbox_internal_status':
    'Le compteur signale un problème interne. Rien à faire de votre côté : votre gestionnaire est prévenu.',
  'myzone.advice.flowbox_dysfunction':
    'Le compteur ne fonctionne pas correctement. Les fuites ne sont pas surveillées en attendant : prévenez votre gestionnaire.',
  'myzone.advice.flowbox_communication':
    'Le compteur ne donne plus de nouvelles. Vérifiez qu’il est alimenté ; les fuites ne sont pas surveillées tant qu’il ne répond pas.',
  'myzone.advice.maintenance':
    'Une maintenance est en cours sur votre compteur. L’eau peut être coupée un court moment.',

  'myzone.valve_title': 'Eau',
  'myzone.valve_open': 'L’eau est ouverte',
  'myzone.valve_closed': 'L’eau est coupée',
  'myzone.valve_unknown': 'État de l’eau inconnu',
  'myzone.valve_locked':
    'Coupée par la fermeture automatique : elle reste fermée jusqu’à ce que quelqu’un la rouvre.',
  'myzone.offline': 'Le boîtier est hors ligne depuis le {{since}} : l’état affiché peut être ancien.',
  'myzone.offline_never': 'Le boîtier n’a encore jamais donné de nouvelles.',
  'myzone.no_device': 'Aucun compteur n’est encore installé dans votre zone.',
  'myzone.no_control':
    'Vous ne pouvez pas ouvrir ou couper l’eau d’ici. Demandez cette autorisation à votre gestionnaire si besoin.',

  'myzone.today': 'Aujourd’hui',
  'myzone.today_volume': 'Eau consommée',
  'myzone.today_cost': 'Coût',
  'myzone.yesterday': 'Hier : {{value}}',
  'myzone.graph_empty': 'Aucune eau consommée sur cette période',
  'myzone.graph_empty_hint':
    'Les relevés de votre compteur apparaissent ici quelques secondes après que l’eau a coulé.',
  'myzone.graph_empty_no_device':
    'Les relevés apparaîtront ici une fois un compteur installé dans votre zone.',

  'myzone.leak_title': 'Mode détection de fuite',
  'myzone.leak_on':
    'Activée : toute eau qui coule dans votre zone lève une alerte de fuite, jusqu’à ce que vous la désactiviez. Elle ne ferme pas l’eau.',
  'myzone.leak_off':
    'Désactivée : l’eau coule normalement. Une eau qui coule {{hours}} heures sans s’arrêter lève quand même une alerte de fuite. Activée, toute eau qui coule en lève une jusqu’à ce que vous la désactiviez ; pour un voyage, le mode absence ci-dessus le fait à ses dates.',
  'myzone.leak_turn_on': 'Activer la détection de fuite',
  'myzone.leak_turn_off': 'Désactiver la détection de fuite',
  'myzone.leak_confirm_off_title': 'Désactiver la détection de fuite ?',
  'myzone.leak_confirm_off_text':
    'L’eau pourra de nouveau couler sans alerte ; seule une eau qui coule {{hours}} heures sans s’arrêter lèvera une alerte de fuite.',
  'myzone.leak_confirm_on_title': 'Activer la détection de fuite ?',
  'myzone.leak_confirm_on_text':
    'Pendant votre absence, toute eau qui coule dans votre zone lève une alerte de fuite. Elle ne ferme pas l’eau.',
  'myzone.leak_saved': 'Détection de fuite mise à jour',
  'myzone.closed_since': 'Coupée depuis le {{date}}, {{by}}.',
  'myzone.closed_by.person': 'fermée par {{name}}',
  'myzone.closed_by.automatic_closing': 'fermée par la fermeture automatique',
  'myzone.closed_by.schedule': 'fermée par une fermeture programmée',
  'myzone.closed_by.away_mode': 'fermée par le mode absence',
  'myzone.closed_by.device': 'fermée à la main sur l’appareil',
  'myzone.closed_by.unknown': 'fermée',
  'myzone.all_alerts': 'Mes alertes',
  'myzone.alert_history': 'Mes alertes passées',
};
