import type { MESSAGES_EN } from './messages-en.ts';

/** The server's messages in French (messages.ts), fetched by the web app only when French is chosen. */
export const MESSAGES_FR = {
  'errors.login_failed': 'Impossible de vous authentifier, vérifiez votre email et votre mot de passe',
  'errors.reset_password_failed': 'Impossible de changer le mot de passe, veuillez réessayer plus tard',
  'errors.api_error': "Le serveur de l'API a rencontré une erreur, veuillez réessayer plus tard.",
  'errors.service_unavailable':
    'Ce serveur ne peut pas faire son travail pour le moment ({{parts}} indisponible), veuillez réessayer plus tard.',
  'errors.forbidden': 'Récupération de la resource non autorisée',
  'errors.auth_expired': 'Authentification expirée - veuillez vous identifier',
  'errors.invalid_token': 'Le token est invalide',
  'errors.network': 'Erreur de réseau',
  'errors.email_taken': 'Cet email est déjà pris',
  'errors.no_action_allowed': 'Aucune action autorisée',
  'errors.automatic_closing_not_triggered':
    "La fermeture automatique n'est pas déclenchée sur cette zone : il n'y a rien à quitter",
  'errors.not_found': "Cette ressource n'existe pas ou ne vous est pas accessible",
  'errors.names_mismatch': 'Les deux noms ne correspondent pas',
  'errors.too_many_attempts': 'Trop de tentatives, veuillez réessayer dans {{minutes}} minutes',
  'errors.rate_limited': 'Trop de requêtes, veuillez patienter un instant et réessayer',
  'errors.live_streams_limit':
    'Trop de connexions en direct pour ce compte ({{max}} au plus) : fermez un autre onglet ou une autre fenêtre et réessayez',
  'errors.validation': 'Certains champs ne sont pas valides',
  'errors.webhook_limit': 'Ce client a déjà {{max}} webhooks, le plus qu’il puisse en avoir',
  'errors.wrong_current_password': "Votre mot de passe actuel n'est pas correct",
  'errors.cannot_delete_self': 'Vous ne pouvez pas supprimer votre propre compte',
  'errors.payload_too_large': 'La requête est trop volumineuse',
  'errors.unsupported_media_type': "Le corps de la requête est dans un format que ce serveur n'accepte pas",
  'errors.invalid_site_list': "Un des sites sélectionnés n'appartient pas à ce client",
  'errors.invalid_alert_zones':
    "Une des zones n'existe pas ou ne fait pas partie de celles dont cet utilisateur est averti",
  'errors.user_create_failed': "Impossible de créer l'utilisateur, vérifiez les champs et réessayez",
  'errors.user_update_failed': "Impossible de modifier l'utilisateur, vérifiez les champs et réessayez",
  'errors.image_type': "L'image doit être un fichier PNG, JPEG ou WebP",
  'errors.image_too_large': "L'image est trop volumineuse : 5 Mo au plus",
  'errors.file_too_large': 'Le fichier est trop volumineux : {{max}} Mo au plus',
  'errors.range_not_satisfiable': 'La plage demandée est en dehors du fichier',
  'errors.no_pricing_plans':
    'Aucune offre tarifaire pour la région ({{country}}, {{currency}}) : veuillez contacter {{contact}} pour en obtenir une',
  'errors.pricing_plan_unavailable': "Cette offre tarifaire n'est pas proposée pour cette zone",
  'errors.pricing_plan_in_use':
    'Des zones sont abonnées à cette offre : changez son prix avec « Nouveau prix » pour que la consommation passée garde son prix',
  'errors.premium_required':
    "Ceci fait partie du service premium : passez la zone en premium depuis sa page d'abonnement",
  'errors.alert_state': 'Cette alerte a déjà changé : rechargez la page pour voir son état',
  'errors.alert_not_answerable':
    '« Était-ce vous ? » ne se pose que sur les alertes de fuite et de consommation anormale',
  'errors.firmware_naming': 'Nommage du firmware incorrect : le fichier doit s’appeler {{expected}}',
  'errors.firmware_update_failed': 'La mise à jour du firmware a échoué',
  'errors.firmware_too_large': 'L’image du firmware est trop lourde : {{max}} Mo au plus',
  'errors.firmware_fields_after_file':
    'Envoyez les champs du formulaire avant son fichier : {{fields}} arrivent après le fichier et ne compteraient pas',
  'errors.firmware_empty': 'L’image du firmware est vide',
  'errors.firmware_duplicate':
    'Ce firmware est déjà au catalogue (même version pour l’un de ces modèles, ou même fichier)',
  'errors.firmware_withdrawn': 'Cette version du firmware a été retirée : elle ne peut plus être installée',
  'errors.firmware_incompatible': 'Ce firmware ne convient pas au modèle de ce flowbox',
  'errors.firmware_update_running': 'Une mise à jour du firmware est déjà en cours sur ce flowbox',
  'errors.firmware_zone_locked':
    'La zone est verrouillée par la fermeture automatique : ses flowbox ne sont pas mis à jour avant son déverrouillage',
  'errors.firmware_opening_hours':
    'Le bâtiment est ouvert, et le flowbox ne mesure plus pendant qu’il redémarre sur son nouveau firmware : mettez-le à jour après la fermeture, ou demandez la mise à jour même pendant les heures d’ouverture',
  'errors.firmware_in_rollout':
    'Ce flowbox attend son tour dans un déploiement de firmware : le déploiement le mettra à jour (annulez le déploiement pour le mettre à jour seul)',
  'errors.rollout_no_devices': 'Aucun flowbox de cette sélection ne peut recevoir ce firmware',
  'errors.rollout_state': 'Ce déploiement a déjà changé : rechargez la page pour voir son état',
  'errors.firmware_download_gone':
    'Ce téléchargement de firmware est terminé : la mise à jour n’en est plus au téléchargement',
  'errors.device_auth_failed': 'L’appareil n’a pas pu être authentifié',
  'validation.export_too_long': 'Un export couvre au plus cinq ans',
  'validation.water_balance_too_long': 'Un bilan d’eau couvre au plus 31 jours',
  'validation.volume': 'Veuillez saisir un volume avec 4 décimales au plus, par exemple 12.5',
  'validation.report_too_long': 'Un rapport couvre au plus un an',
  'errors.invalid_report_recipients':
    'Un des destinataires n’existe pas ou ne consulte pas ce client ou ce site',
  'validation.unit_price': 'Veuillez saisir un prix avec 6 décimales au plus, par exemple 0.0035',
  'validation.range_first_zero': 'La première tranche commence à 0',
  'validation.range_end_after_start': 'Le volume de fin doit être supérieur au volume de début',
  'validation.range_contiguous': 'Les volumes doivent être contigus',
  'validation.range_last_open': 'La dernière tranche doit avoir « Sans limite de fin » activé',
  'validation.range_only_last_open': 'Seule la dernière tranche peut être « Sans limite de fin »',
  'validation.new_price_after': 'Le nouveau prix doit commencer après la date de début du prix actuel',
  'errors.zone_without_subscription':
    "Cette zone n'a pas d'abonnement : choisissez-en un avant d'appairer un flowbox",
  'errors.flowbox_model_mismatch': "Le modèle de l'appareil ne correspond pas à celui de la zone",
  'errors.water_temperature_mismatch':
    "La température de l'eau de la zone ne correspond pas à celle de l'appareil",
  'errors.flowbox_already_paired': "Ce flowbox est déjà appairé ou en cours d'appairage",
  'errors.pairing_step': "Cette action n'est pas possible à cette étape de l'appairage",
  'errors.invalid_zone_list': 'Une ou plusieurs zones ne sont pas valides',
  'errors.registration_decided': 'Cette inscription a déjà été traitée',
  'errors.permission_not_held': "Vous ne pouvez pas accorder une permission que vous n'avez pas vous-même",
  'message.registration_confirmed_pending':
    'Votre adresse est confirmée. Le gestionnaire de votre bâtiment va examiner votre demande ; nous vous écrirons dès que ce sera fait.',
  'message.registration_confirmed_active':
    'Votre adresse est confirmée et votre compte est actif : vous pouvez vous connecter.',
  'message.registration_received':
    'Consultez votre messagerie : nous avons envoyé un lien de confirmation à cette adresse. Ouvrez-le dans les {{hours}} heures pour confirmer votre adresse et choisir votre mot de passe : le gestionnaire de votre bâtiment ne voit votre demande qu’une fois celle-ci confirmée. Aucun e-mail d’ici quelques minutes ? Regardez dans vos courriers indésirables, puis vérifiez votre code auprès du gestionnaire de votre bâtiment.',
  'errors.flowbox_not_ready': 'Le flowbox doit être appairé avant de pouvoir être commandé',
  'errors.valve_command_pending':
    "Une commande de vanne est déjà en cours vers ce flowbox : attendez que l'appareil la confirme ou qu'elle expire",
  'errors.scheduled_closing_not_authorised':
    "Les fermetures programmées ne sont pas autorisées sur cette zone : activez d'abord « Fermeture programmée autorisée » dans les paramètres de la zone",
  'validation.opening_after_closing': "L'heure d'ouverture doit être postérieure à l'heure de fermeture",
  'validation.required': 'Ce champ est requis',
  'validation.number': 'Doit être un nombre',
  'validation.integer': 'Doit être un entier',
  'validation.select': 'Veuillez sélectionner une option',
  'validation.service_level_from_subscription':
    "Le niveau de service vient de l'abonnement de la zone : choisissez-le sur la page d'abonnement de la zone",
  'validation.password': 'Le mot de passe doit contenir au moins un chiffre et une lettre',
  'validation.password_length': 'Le mot de passe doit contenir au moins {{min}} caractères',
  'validation.password_match': 'Les mots de passe doivent correspondre',
  'validation.terms': "Vous devez accepter les conditions d'utilisation",
  'validation.end_after_start': 'Doit être postérieure à la date de début',
  'validation.end_in_future': 'La fin doit être postérieure à maintenant',
  'validation.min_one': 'Le nombre doit être supérieur ou égal à 1',
  'validation.email': 'Veuillez saisir une adresse email valide',
  'validation.too_long': 'Doit contenir au plus {{max}} caractères',
  'validation.max': 'Doit être inférieur ou égal à {{max}}',
  'validation.min': 'Doit être supérieur ou égal à {{min}}',
  'validation.between': 'Doit être compris entre {{min}} et {{max}}',
  'validation.latitude': 'La latitude doit être comprise entre -90 et 90 degrés',
  'validation.longitude': 'La longitude doit être comprise entre -180 et 180 degrés',
  'validation.coordinates_pair': 'Indiquez la latitude et la longitude, ou aucune des deux',
  'validation.phone': 'Saisissez un numéro de téléphone : chiffres, espaces et + - . ( ) uniquement',
  'validation.margin_required': 'La fermeture automatique demande au moins une marge : volume ou durée',
  'validation.date': 'Veuillez saisir une date valide',
  'validation.date_span': 'Veuillez saisir une date entre le 01/01/2000 et le 31/12/2099',
  'validation.invalid': "Cette valeur n'est pas valide",
  'validation.forbidden_character':
    'Contient un caractère non autorisé (U+0000 ou une moitié de paire de substitution)',
  'validation.at_least_one_site': 'Veuillez sélectionner au moins un site',
  'validation.at_least_one_zone': 'Veuillez sélectionner au moins une zone',
  'validation.decimal': 'Veuillez saisir un nombre avec au plus 4 décimales, par exemple 2.5',
  'validation.positive': 'Doit être supérieur à 0',
  'validation.time': 'Veuillez saisir une heure au format HH:mm, par exemple 08:30',
  'validation.hours_order': "L'heure de fermeture doit être postérieure à l'heure d'ouverture",
  'validation.hours_overlap': "Les horaires d'une même journée ne doivent pas se chevaucher",
  'validation.timezone': 'Veuillez sélectionner un fuseau horaire valide',
  'validation.quiet_hours_empty':
    'Les heures calmes doivent finir à une autre heure que celle où elles commencent',
  'validation.first_channel':
    "Choisissez au moins un canal immédiat pour les alertes critiques : le suivant ne part que si le premier n'est pas ouvert",
  'validation.unique': "Chaque option ne peut être choisie qu'une fois",
  'validation.permission_above_role': 'Ce rôle ne peut pas avoir cette permission',
  'validation.zones_not_sites': 'Un utilisateur final est rattaché à des zones (zone_id), pas à des sites',
  'validation.sites_not_zones': 'Un plombier est affecté à des sites (site_id), pas à des zones',
  'validation.firmware_version': 'Veuillez saisir une version MAJEUR.MINEUR.CORRECTIF, par exemple 2.5.0',
  'validation.increasing': 'Chaque valeur doit être supérieure à la précédente',
  'validation.too_many': 'Trop de valeurs : {{max}} au plus',
  'validation.push_endpoint':
    "L'adresse de notification doit être celle donnée par le navigateur, commençant par https://",
  'validation.push_key': "Ce n'est pas une clé de notification de navigateur",
  'validation.webhook_url':
    "Veuillez saisir une adresse commençant par https://, sans nom d'utilisateur ni mot de passe",
  'validation.webhook_events': 'Veuillez sélectionner au moins un événement',
  'validation.webhook_address':
    'Cette adresse mène à un réseau privé, local ou réservé, que les webhooks ne peuvent pas atteindre : veuillez donner une adresse publique',
} as const satisfies Record<keyof typeof MESSAGES_EN, string>;
