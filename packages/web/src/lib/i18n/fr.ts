import type { CoreMessageKey } from './en.ts';
import { shellFr } from './shell.ts';

/** The server's messages in French travel with the UI's: the entry carries English only (issue 16). */
export { MESSAGES_FR } from '@flowbox/shared';

/** UI texts, French: the type demands every English key. */
export const fr: Record<CoreMessageKey, string> = {
  'common.actions': 'Actions',
  'common.back_home': "Retour à l'accueil",
  'common.back_to_login': 'Retour à la connexion',
  'common.labelled': '{{label}} : {{value}}',
  'common.cancel': 'Annuler',
  'common.close': 'Fermer',
  'common.delete': 'Supprimer',
  'common.dismiss': 'Fermer le message',
  'common.edit': 'Modifier',
  'common.loading': 'Chargement…',
  'common.no_results': 'Aucun résultat pour cette recherche.',
  'common.save': 'Enregistrer',

  'dialog.error': 'Erreur !',
  'dialog.warning': 'Attention !',
  'nav.main': 'Navigation principale',
  'nav.menu': 'Menu',
  'nav.skip': 'Aller au contenu principal',
  'nav.breadcrumbs': "Fil d'Ariane",
  'nav.dashboard': 'Tableau de bord',
  'nav.customers': 'Clients',
  'nav.my_customer': 'Mon client',
  'nav.sites': 'Sites',
  'nav.flovea_managers': 'Gestionnaires Flovea',
  'nav.outbox': "Boîte d'envoi",
  'nav.assistant': 'Assistant de mise en service',
  'nav.profile': 'Mon profil',
  'nav.logout': 'Se déconnecter',

  'footer.label': 'Liens utiles',
  'footer.status': 'État du service',
  'footer.documentation': 'Documentation utilisateur',
  'footer.support': 'Assistance',
  'footer.terms': "Conditions d'utilisation",
  'footer.privacy': 'Politique de confidentialité',

  'language.switch': 'Langue',
  'language.en': 'Anglais',
  'language.fr': 'Français',

  'fields.name': 'Nom',
  'fields.firstname': 'Prénom',
  'fields.lastname': 'Nom de famille',
  'fields.email': 'Email',
  'fields.password': 'Mot de passe',
  'fields.new_password': 'Nouveau mot de passe',
  'fields.current_password': 'Mot de passe actuel',
  'fields.password_confirmation': 'Confirmation du mot de passe',
  'fields.password_hint': 'Au moins 8 caractères, dont au moins un chiffre et une lettre.',
  'fields.language': 'Langue',
  'fields.address': 'Adresse',
  'fields.role': 'Rôle',
  'fields.phone': 'Téléphone',
  'fields.contact_name': 'Nom du contact',
  'fields.subscription_date': "Date d'abonnement",
  'fields.created_at': 'Créé le',
  'fields.last_logged_in': 'Dernière connexion',
  'fields.flowbox_serial': 'Numéro de série du flowbox',
  'fields.claim_code': 'Code d’activation',
  'fields.alert_notification_enabled': 'Recevoir les notifications d’alerte',

  'login.title': 'Connexion',
  'login.subtitle': 'Gérez vos compteurs intelligents flowbox.',
  'login.submit': 'Se connecter',
  'login.forgot': 'Mot de passe oublié ?',
  'login.no_account': 'Votre immeuble a un flowbox ?',
  'login.register': 'Créer un compte',

  'register.title': 'Créer un compte',
  'register.subtitle':
    'Pour les résidents dont l’immeuble est déjà équipé d’un flowbox. Nous vous envoyons un lien pour confirmer votre adresse ; vous y choisirez votre mot de passe.',
  'register.accept_terms': "J'accepte les",
  'register.submit': 'Créer mon compte',
  'register.have_account': 'Vous avez déjà un compte ?',
  'register.done_title': 'Inscription enregistrée',
  'register.claim_code_hint':
    'Le code de 12 caractères remis par le gestionnaire de votre bâtiment (par exemple ABCD-EFGH-JKMN).',
  'register.serial_optional_hint': 'Facultatif : inscrit sur l’étiquette du flowbox installé chez vous.',
  'register_confirm.title': 'Confirmation de votre adresse',
  'register_confirm.subtitle':
    'Choisissez le mot de passe de votre compte : confirmer votre adresse avec lui transmet votre demande.',
  'register_confirm.submit': 'Confirmer mon adresse',
  'register_confirm.invalid_link':
    'Ce lien ne fonctionne plus : il a déjà servi, ou il date de plus de 48 heures. Si vous l’avez déjà ouvert, votre demande est entre les mains du gestionnaire de votre bâtiment ; sinon, inscrivez-vous de nouveau.',
  'register_confirm.register_again': 'M’inscrire de nouveau',

  'reset_request.title': 'Réinitialiser votre mot de passe',
  'reset_request.subtitle':
    'Saisissez votre email : si un compte existe, nous vous envoyons un lien pour choisir un nouveau mot de passe.',
  'reset_request.submit': 'Envoyer le lien',
  'reset_password.title': 'Choisir un nouveau mot de passe',
  'reset_password.subtitle': 'Saisissez deux fois votre nouveau mot de passe.',
  'reset_password.submit': 'Enregistrer le nouveau mot de passe',
  'reset_password.ask_again': 'Demander un nouveau lien',
  'set_password.ask_again': 'Demandez une nouvelle invitation à la personne qui vous a invité.',
  'token_password.expired_title': 'Ce lien ne fonctionne plus',
  'token_password.expired': 'Il a expiré ou a déjà servi.',
  'set_password.title': 'Choisir votre mot de passe',
  'set_password.subtitle': 'Bienvenue ! Choisissez le mot de passe de votre nouveau compte.',
  'set_password.submit': 'Enregistrer mon mot de passe',

  'toast.user_created': 'Utilisateur créé : un email d’invitation a été envoyé',
  'toast.user_updated': 'Utilisateur modifié',
  'toast.user_deleted': 'Utilisateur supprimé',
  'toast.user_registered': 'Inscription enregistrée',
  'toast.profile_updated': 'Votre profil a été mis à jour',
  'toast.permissions_updated': 'Les permissions ont été mises à jour',
  'toast.customer_created': 'Client créé',
  'toast.customer_updated': 'Client modifié',
  'toast.customer_deleted': 'Client supprimé',
  'toast.site_created': 'Site créé',
  'toast.site_updated': 'Site modifié',
  'toast.site_deleted': 'Site supprimé',

  'table.pagination': 'Pages',
  'table.previous': 'Précédent',
  'table.next': 'Suivant',
  'table.range': '{{from}}–{{to}} sur {{total}}',

  'not_found.title': 'Page non trouvée',
  'not_found.text': "La page demandée n'existe pas ou a été déplacée.",

  'status.title': 'État du service',
  'status.up': 'Flowbox Manager fonctionne et répond.',
  'status.down': 'Flowbox Manager est injoignable pour le moment.',
  'status.contact': 'Pour signaler un problème, écrivez à',

  'terms.title': "Conditions d'utilisation",
  'terms.p1':
    'Flowbox Manager permet de gérer les compteurs intelligents flowbox et les bâtiments qu’ils équipent.',
  'terms.p2':
    'Votre compte est personnel : gardez votre mot de passe secret et prévenez aussitôt votre fournisseur si vous pensez que quelqu’un d’autre l’a utilisé.',
  'terms.p3':
    "Les actions faites dans Flowbox Manager, comme fermer une vanne, agissent sur de vrais réseaux d'eau. Utilisez-les avec soin ; elles sont enregistrées dans le journal d'activité.",
  'terms.p4':
    'Le fournisseur peut modifier ces conditions ; tout changement important vous sera signalé à votre prochaine connexion.',
  'privacy.title': 'Politique de confidentialité',
  'privacy.p1':
    "Nous conservons vos nom, email, langue, adresse et réglages de notification pour faire fonctionner votre compte, et la consommation d'eau mesurée par les flowbox pour rendre le service.",
  'privacy.p2':
    'Vos données servent uniquement à Flowbox Manager. Elles ne sont jamais vendues ; seules les équipes de votre fournisseur et de votre organisation qui en ont besoin y ont accès.',
  'privacy.p3':
    'Deux cookies vous gardent connecté (access_token et refresh_token) ; votre choix de langue est gardé dans votre navigateur. Aucun cookie publicitaire ou de suivi n’est utilisé.',
  'privacy.p4':
    "Vous pouvez demander à consulter, corriger ou supprimer vos données en écrivant à l'assistance.",
  'help.title': 'Documentation utilisateur',
  ...shellFr,
};
