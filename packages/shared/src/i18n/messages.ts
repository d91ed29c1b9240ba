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
    'errors.forbidden': 'Unauthorized resource recovery',
    'errors.auth_expired': 'Authentication expired - Please sign-in.',
    'errors.invalid_token': 'Invalid token',
    'errors.network': 'Network Error',
    'errors.email_taken': 'This email is already used by another user.',
    'errors.no_action_allowed': 'No action allowed',
    'errors.not_found': 'This resource does not exist or is not accessible to you',
    'errors.names_mismatch': "Both names don't match",
    'errors.too_many_attempts': 'Too many attempts, please try again in {{minutes}} minutes',
    'errors.rate_limited': 'Too many requests, please slow down and try again in a moment',
    'errors.validation': 'Some fields are not valid',
    'errors.wrong_current_password': 'Your current password is not correct',
    'errors.cannot_delete_self': 'You cannot delete your own account',
    'errors.payload_too_large': 'The request is too large',
    'errors.invalid_site_list': 'One of the selected sites does not belong to this customer',
    'errors.user_create_failed': 'Unable to create the user, please check the fields and try again',
    'errors.user_update_failed': 'Unable to update the user, please check the fields and try again',
    'errors.image_type': 'The image must be a PNG, JPEG or WebP file',
    'errors.image_too_large': 'The image is too large: 5 MB at most',
    'validation.required': 'This field is required',
    'validation.number': 'Must be a number',
    'validation.integer': 'Must be an integer',
    'validation.select': 'Please select an option',
    'validation.password': 'The password must contain at least one number and one letter',
    'validation.password_length': 'The password must be at least {{min}} characters long',
    'validation.password_match': 'Passwords must match',
    'validation.terms': 'You must accept the terms of use',
    'validation.end_after_start': 'Should be posterior start date',
    'validation.min_one': 'Number must be greather or equal to 1',
    'validation.email': 'Please enter a valid email address',
    'validation.too_long': 'Must be at most {{max}} characters',
    'validation.max': 'Must be at most {{max}}',
    'validation.date': 'Please enter a valid date',
    'validation.invalid': 'This value is not valid',
    'validation.at_least_one_site': 'Please select at least one site',
    'validation.decimal': 'Please enter a number with at most 4 decimals, such as 2.5',
    'validation.positive': 'Must be greater than 0',
    'validation.time': 'Please enter a time as HH:mm, such as 08:30',
    'validation.hours_order': 'The closing time must be after the opening time',
    'validation.hours_overlap': 'Opening hours of one day must not overlap',
    'validation.timezone': 'Please select a valid time zone',
    'validation.unique': 'Each option may be chosen only once',
  },
  fr: {
    'errors.login_failed': 'Impossible de vous authentifier, vérifiez votre email et votre mot de passe',
    'errors.reset_password_failed': 'Impossible de changer le mot de passe, veuillez réessayer plus tard',
    'errors.api_error': "Le serveur de l'API a rencontré une erreur, veuillez réessayer plus tard.",
    'errors.forbidden': 'Récupération de la resource non autorisée',
    'errors.auth_expired': 'Authentification expirée - veuillez vous identifier',
    'errors.invalid_token': 'Le token est invalide',
    'errors.network': 'Erreur de réseau',
    'errors.email_taken': 'Cet email est déjà pris',
    'errors.no_action_allowed': 'Aucune action autorisée',
    'errors.not_found': "Cette ressource n'existe pas ou ne vous est pas accessible",
    'errors.names_mismatch': 'Les deux noms ne correspondent pas',
    'errors.too_many_attempts': 'Trop de tentatives, veuillez réessayer dans {{minutes}} minutes',
    'errors.rate_limited': 'Trop de requêtes, veuillez patienter un instant et réessayer',
    'errors.validation': 'Certains champs ne sont pas valides',
    'errors.wrong_current_password': "Votre mot de passe actuel n'est pas correct",
    'errors.cannot_delete_self': 'Vous ne pouvez pas supprimer votre propre compte',
    'errors.payload_too_large': 'La requête est trop volumineuse',
    'errors.invalid_site_list': "Un des sites sélectionnés n'appartient pas à ce client",
    'errors.user_create_failed': "Impossible de créer l'utilisateur, vérifiez les champs et réessayez",
    'errors.user_update_failed': "Impossible de modifier l'utilisateur, vérifiez les champs et réessayez",
    'errors.image_type': "L'image doit être un fichier PNG, JPEG ou WebP",
    'errors.image_too_large': "L'image est trop volumineuse : 5 Mo au plus",
    'validation.required': 'Ce champ est requis',
    'validation.number': 'Doit être un nombre',
    'validation.integer': 'Doit être un entier',
    'validation.select': 'Veuillez sélectionner une option',
    'validation.password': 'Le mot de passe doit contenir au moins un chiffre et une lettre',
    'validation.password_length': 'Le mot de passe doit contenir au moins {{min}} caractères',
    'validation.password_match': 'Les mots de passe doivent correspondre',
    'validation.terms': "Vous devez accepter les conditions d'utilisation",
    'validation.end_after_start': 'Doit être postérieure à la date de début',
    'validation.min_one': 'Le nombre doit être supérieur ou égal à 1',
    'validation.email': 'Veuillez saisir une adresse email valide',
    'validation.too_long': 'Doit contenir au plus {{max}} caractères',
    'validation.max': 'Doit être inférieur ou égal à {{max}}',
    'validation.date': 'Veuillez saisir une date valide',
    'validation.invalid': "Cette valeur n'est pas valide",
    'validation.at_least_one_site': 'Veuillez sélectionner au moins un site',
    'validation.decimal': 'Veuillez saisir un nombre avec au plus 4 décimales, par exemple 2.5',
    'validation.positive': 'Doit être supérieur à 0',
    'validation.time': 'Veuillez saisir une heure au format HH:mm, par exemple 08:30',
    'validation.hours_order': "L'heure de fermeture doit être postérieure à l'heure d'ouverture",
    'validation.hours_overlap': "Les horaires d'une même journée ne doivent pas se chevaucher",
    'validation.timezone': 'Veuillez sélectionner un fuseau horaire valide',
    'validation.unique': "Chaque option ne peut être choisie qu'une fois",
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
