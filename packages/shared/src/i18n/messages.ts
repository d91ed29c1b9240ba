import type { Language } from '../roles.ts';

/**
 * The catalogue of messages the server sends and the web shows (spec §5, §8), EN and FR.
 * Keys are stable codes; `{{name}}` placeholders are filled by `translate`.
 */
export const MESSAGES = {
  en: {
    'errors.login_failed': 'Unable to authenticate you, verify your email and password',
    'errors.reset_password_failed': 'Unable to change password, please try again later',
    'errors.api_error': 'The API server encountered an error, please try again later.',
    'errors.service_unavailable':
      'This server cannot do its work right now ({{parts}} unavailable), please try again later.',
    'errors.forbidden': 'Unauthorized resource recovery',
    'errors.auth_expired': 'Authentication expired - Please sign-in.',
    'errors.invalid_token': 'Invalid token',
    'errors.network': 'Network Error',
    'errors.email_taken': 'This email is already used by another user.',
    'errors.no_action_allowed': 'No action allowed',
    'errors.automatic_closing_not_triggered':
      'Automatic closing is not triggered on this zone: there is nothing to exit',
    'errors.not_found': 'This resource does not exist or is not accessible to you',
    'errors.names_mismatch': "Both names don't match",
    'errors.too_many_attempts': 'Too many attempts, please try again in {{minutes}} minutes',
    'errors.rate_limited': 'Too many requests, please slow down and try again in a moment',
    'errors.validation': 'Some fields are not valid',
    'errors.wrong_current_password': 'Your current password is not correct',
    'errors.cannot_delete_self': 'You cannot delete your own account',
    'errors.payload_too_large': 'The request is too large',
    'errors.invalid_site_list': 'One of the selected sites does not belong to this customer',
    'errors.invalid_alert_zones': 'One of the zones does not exist or is not one this user is told about',
    'errors.user_create_failed': 'Unable to create the user, please check the fields and try again',
    'errors.user_update_failed': 'Unable to update the user, please check the fields and try again',
    'errors.image_type': 'The image must be a PNG, JPEG or WebP file',
    'errors.image_too_large': 'The image is too large: 5 MB at most',
    'errors.file_too_large': 'The file is too large: {{max}} MB at most',
    'errors.range_not_satisfiable': 'The requested range is outside the file',
    'errors.no_pricing_plans':
      'No pricing plans for the region ({{country}}, {{currency}}): please contact {{contact}} to get one',
    'errors.pricing_plan_unavailable': 'This pricing plan is not offered for this zone',
    'errors.pricing_plan_in_use':
      'Zones subscribe to this pricing plan: change its price with "New price" so that past consumption keeps its price',
    'errors.premium_required':
      'This is part of the premium service: upgrade the zone to premium on its subscription page',
    'errors.alert_state': 'This alert has already changed: reload the page to see its state',
    'errors.firmware_naming': 'Firmware naming not correct: the file must be named {{expected}}',
    'errors.firmware_update_failed': 'Firmware update failed',
    'errors.firmware_too_large': 'The firmware image is too large: {{max}} MB at most',
    'errors.firmware_empty': 'The firmware image is empty',
    'errors.firmware_download_gone': 'This firmware download is over: the update is no longer downloading',
    'errors.device_auth_failed': 'The device could not be authenticated',
    'errors.firmware_duplicate':
      'This firmware is already in the catalogue (same version for one of these models, or the same file)',
    'errors.firmware_withdrawn': 'This firmware version has been withdrawn: it can no longer be installed',
    'errors.firmware_incompatible': "This firmware does not fit this flowbox's model",
    'errors.firmware_update_running': 'A firmware update is already running on this flowbox',
    'errors.firmware_zone_locked':
      'The zone is locked by automatic closing: its flowboxes are not updated until it is unlocked',
    'errors.rollout_no_devices': 'No flowbox of this selection can receive this firmware',
    'errors.rollout_state': 'This rollout has already changed: reload the page to see its state',
    'validation.export_too_long': 'An export covers at most five years',
    'validation.volume': 'Please enter a volume with at most 4 decimals, such as 12.5',
    'validation.unit_price': 'Please enter a price with at most 6 decimals, such as 0.0035',
    'validation.range_first_zero': 'The first range starts at 0',
    'validation.range_end_after_start': 'End volume must be greater than start volume',
    'validation.range_contiguous': 'Volumes must be contiguous',
    'validation.range_last_open': 'The last range must have "No end limit" activated',
    'validation.range_only_last_open': 'Only the last range may have "No end limit"',
    'validation.new_price_after': 'The new price must start after the start date of the current price',
    'errors.zone_without_subscription': 'This zone has no subscription: choose one before pairing a flowbox',
    'errors.flowbox_model_mismatch': "The device model does not match the zone's flowbox model",
    'errors.water_temperature_mismatch': "The water temperature of the zone does not match the device's",
    'errors.flowbox_already_paired': 'This flowbox is already paired or being paired',
    'errors.pairing_step': 'This action is not possible at this pairing step',
    'errors.flowbox_not_ready': 'The flowbox must be paired before it can be controlled',
    'errors.valve_command_pending':
      'A valve command is already on its way to this flowbox: wait for the device to confirm it or for it to expire',
    'errors.scheduled_closing_not_authorised':
      'Scheduled closings are not authorised on this zone: turn on "Scheduled closing authorised" in the zone settings first',
    'validation.opening_after_closing': 'The opening time must be after the closing time',
    'validation.required': 'This field is required',
    'validation.number': 'Must be a number',
    'validation.integer': 'Must be an integer',
    'validation.select': 'Please select an option',
    'validation.service_level_from_subscription':
      "The service level comes from the zone's subscription: choose it on the zone's subscription page",
    'validation.password': 'The password must contain at least one number and one letter',
    'validation.password_length': 'The password must be at least {{min}} characters long',
    'validation.password_match': 'Passwords must match',
    'validation.terms': 'You must accept the terms of use',
    'validation.end_after_start': 'Should be posterior start date',
    'validation.min_one': 'Number must be greather or equal to 1',
    'validation.email': 'Please enter a valid email address',
    'validation.too_long': 'Must be at most {{max}} characters',
    'validation.max': 'Must be at most {{max}}',
    'validation.min': 'Must be at least {{min}}',
    'validation.between': 'Must be between {{min}} and {{max}}',
    'validation.margin_required': 'Automatic closing needs at least one margin: volume or duration',
    'validation.date': 'Please enter a valid date',
    'validation.date_span': 'Please enter a date between 01/01/2000 and 12/31/2099',
    'validation.invalid': 'This value is not valid',
    'validation.forbidden_character': 'Contains a character that is not allowed (U+0000 or a lone surrogate)',
    'validation.at_least_one_site': 'Please select at least one site',
    'validation.decimal': 'Please enter a number with at most 4 decimals, such as 2.5',
    'validation.positive': 'Must be greater than 0',
    'validation.time': 'Please enter a time as HH:mm, such as 08:30',
    'validation.hours_order': 'The closing time must be after the opening time',
    'validation.hours_overlap': 'Opening hours of one day must not overlap',
    'validation.timezone': 'Please select a valid time zone',
    'validation.unique': 'Each option may be chosen only once',
    'validation.firmware_version': 'Please enter a version as MAJOR.MINOR.PATCH, such as 2.5.0',
    'validation.increasing': 'Each value must be greater than the one before',
    'validation.too_many': 'Too many values: {{max}} at most',
  },
  fr: {
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
    'errors.validation': 'Certains champs ne sont pas valides',
    'errors.wrong_current_password': "Votre mot de passe actuel n'est pas correct",
    'errors.cannot_delete_self': 'Vous ne pouvez pas supprimer votre propre compte',
    'errors.payload_too_large': 'La requête est trop volumineuse',
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
    'errors.firmware_naming': 'Nommage du firmware incorrect : le fichier doit s’appeler {{expected}}',
    'errors.firmware_update_failed': 'La mise à jour du firmware a échoué',
    'errors.firmware_too_large': 'L’image du firmware est trop lourde : {{max}} Mo au plus',
    'errors.firmware_empty': 'L’image du firmware est vide',
    'errors.firmware_download_gone':
      'Ce téléchargement de firmware est terminé : la mise à jour n’en est plus au téléchargement',
    'errors.device_auth_failed': 'L’appareil n’a pas pu être authentifié',
    'errors.firmware_duplicate':
      'Ce firmware est déjà au catalogue (même version pour l’un de ces modèles, ou même fichier)',
    'errors.firmware_withdrawn': 'Cette version du firmware a été retirée : elle ne peut plus être installée',
    'errors.firmware_incompatible': 'Ce firmware ne convient pas au modèle de ce flowbox',
    'errors.firmware_update_running': 'Une mise à jour du firmware est déjà en cours sur ce flowbox',
    'errors.firmware_zone_locked':
      'La zone est verrouillée par la fermeture automatique : ses flowbox ne sont pas mis à jour avant son déverrouillage',
    'errors.rollout_no_devices': 'Aucun flowbox de cette sélection ne peut recevoir ce firmware',
    'errors.rollout_state': 'Ce déploiement a déjà changé : rechargez la page pour voir son état',
    'validation.export_too_long': 'Un export couvre au plus cinq ans',
    'validation.volume': 'Veuillez saisir un volume avec 4 décimales au plus, par exemple 12.5',
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
    'validation.min_one': 'Le nombre doit être supérieur ou égal à 1',
    'validation.email': 'Veuillez saisir une adresse email valide',
    'validation.too_long': 'Doit contenir au plus {{max}} caractères',
    'validation.max': 'Doit être inférieur ou égal à {{max}}',
    'validation.min': 'Doit être supérieur ou égal à {{min}}',
    'validation.between': 'Doit être compris entre {{min}} et {{max}}',
    'validation.margin_required': 'La fermeture automatique demande au moins une marge : volume ou durée',
    'validation.date': 'Veuillez saisir une date valide',
    'validation.date_span': 'Veuillez saisir une date entre le 01/01/2000 et le 31/12/2099',
    'validation.invalid': "Cette valeur n'est pas valide",
    'validation.forbidden_character':
      'Contient un caractère non autorisé (U+0000 ou une moitié de paire de substitution)',
    'validation.at_least_one_site': 'Veuillez sélectionner au moins un site',
    'validation.decimal': 'Veuillez saisir un nombre avec au plus 4 décimales, par exemple 2.5',
    'validation.positive': 'Doit être supérieur à 0',
    'validation.time': 'Veuillez saisir une heure au format HH:mm, par exemple 08:30',
    'validation.hours_order': "L'heure de fermeture doit être postérieure à l'heure d'ouverture",
    'validation.hours_overlap': "Les horaires d'une même journée ne doivent pas se chevaucher",
    'validation.timezone': 'Veuillez sélectionner un fuseau horaire valide',
    'validation.unique': "Chaque option ne peut être choisie qu'une fois",
    'validation.firmware_version': 'Veuillez saisir une version MAJEUR.MINEUR.CORRECTIF, par exemple 2.5.0',
    'validation.increasing': 'Chaque valeur doit être supérieure à la précédente',
    'validation.too_many': 'Trop de valeurs : {{max}} au plus',
  },
} as const satisfies Record<Language, Record<string, string>>;

export type MessageKey = keyof (typeof MESSAGES)['en'];
export type ErrorCode = Extract<MessageKey, `errors.${string}`>;

export function isMessageKey(text: string): text is MessageKey {
  return text in MESSAGES.en;
}

export function translate(
  key: MessageKey,
  language: Language,
  params: Record<string, string | number> = {},
): string {
  const template: string = MESSAGES[language][key] ?? MESSAGES.en[key];
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** Picks en or fr from an Accept-Language header, by the first supported tag in order of weight. */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return 'en';
  const tags = header
    .split(',')
    .map((part) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.find((r) => r.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((t) => !Number.isNaN(t.q))
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    if (tag.startsWith('fr')) return 'fr';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}
