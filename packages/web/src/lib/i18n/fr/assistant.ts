import type { assistantEn } from '../assistant.ts';

export const assistantFr: Record<keyof typeof assistantEn, string> = {
  'assistant.title': 'Assistant de mise en service',
  'assistant.description':
    'D’un nouveau site à une zone prête pour son flowbox, étape par étape. Chaque étape est enregistrée au fur et à mesure : vous pouvez vous arrêter et reprendre plus tard.',
  'assistant.steps': 'Étapes de la mise en service',
  'assistant.progress': 'Avancement de la mise en service',
  'assistant.step_done': '(terminée)',
  'assistant.step.site': 'Site',
  'assistant.step.building': 'Bâtiment',
  'assistant.step.floors': 'Étages',
  'assistant.step.zone': 'Zone',
  'assistant.step.water-points': 'Points d’eau',
  'assistant.step.done': 'Prêt',
  'assistant.hint.site': 'Choisissez le site à équiper, ou créez-le.',
  'assistant.hint.building':
    'Choisissez le bâtiment, ou décrivez-le : son fuseau horaire, son unité et sa devise servent à tous les chiffres de consommation.',
  'assistant.hint.floors':
    'Ajoutez les étages où se trouveront les flowbox et les zones, du plus bas au plus haut. Vous pouvez passer cette étape et les ajouter plus tard.',
  'assistant.hint.zone':
    'Une zone est la partie du bâtiment alimentée par un flowbox : choisissez son profil pour que les règles sachent quelle consommation attendre.',
  'assistant.hint.water-points':
    'Listez ce qui consomme de l’eau dans la zone (WC, lavabos, douches…) : cela aide à lire sa consommation et à trouver une fuite.',
  'assistant.hint.done':
    'Tout est enregistré. Voici ce qu’il manque encore à la zone avant d’être surveillée.',
  'assistant.continue_with': 'Continuer avec {{name}}',
  'assistant.back': 'Retour',
  'assistant.next': 'Étape suivante',
  'assistant.finish': 'Terminer',
  'assistant.lost':
    'Cette mise en service ne peut pas être reprise : {{reason}}. Un élément qu’elle avait créé a peut-être été supprimé.',
  'assistant.resume.title': 'Une mise en service est en cours',
  'assistant.resume.text': 'Vous avez commencé une mise en service sur ce navigateur sans la terminer.',
  'assistant.resume.continue': 'Reprendre là où je me suis arrêté',
  'assistant.resume.restart': 'Commencer une nouvelle mise en service',
  'assistant.site.existing': 'Vos sites',
  'assistant.site.buildings_one': '{{count}} bâtiment',
  'assistant.site.buildings_other': '{{count}} bâtiments',
  'assistant.site.new': 'Ou créez un nouveau site',
  'assistant.site.new_first': 'Nouveau site',
  'assistant.building.new_first': 'Nouveau bâtiment',
  'assistant.zone.new_first': 'Nouvelle zone',
  'assistant.done.next': 'Ce qu’il manque encore à la zone',
  'assistant.done.created':
    'La zone « {{zone}} » est créée. Avant d’être surveillée, il lui manque encore ce qui n’est pas coché ci-dessous.',
  'assistant.done.continue_subscription': 'Continuer : choisir son abonnement',
  'assistant.done.continue_pairing': 'Continuer : appairer sa flowbox',
  'assistant.done.continue_automation': 'Continuer : configurer la fermeture automatique',
  'assistant.site.new_hint':
    'Un site regroupe les bâtiments d’un même lieu, comme un campus ou une résidence.',
  'assistant.site.create': 'Créer le site et continuer',
  'assistant.site.none_assigned':
    'Aucun site ne vous est encore attribué : demandez à un gestionnaire de votre client de vous en attribuer un, puis revenez.',
  'assistant.building.existing': 'Bâtiments de ce site',
  'assistant.building.new': 'Ou ajoutez un nouveau bâtiment',
  'assistant.building.create': 'Ajouter le bâtiment et continuer',
  'assistant.zone.existing': 'Zones de ce bâtiment',
  'assistant.zone.new': 'Ou créez une nouvelle zone',
  'assistant.zone.create': 'Créer la zone et continuer',
  'assistant.water_points.recorded': 'Points d’eau de la zone',
  'assistant.water_points.none': 'Aucun point d’eau pour l’instant.',
  'assistant.water_points.new': 'Ajouter un point d’eau',
  'assistant.water_points.add': 'Ajouter le point d’eau',
  'assistant.done.title': 'Mise en service terminée',
  'assistant.done.summary': 'Ce qui a été mis en place',
  'assistant.done.floors': 'Étages',
  'assistant.done.open_zone': 'Ouvrir la zone',
  'assistant.done.another_zone': 'Ajouter une autre zone à ce bâtiment',
  'assistant.done.dashboard': 'Retour au tableau de bord',
};
