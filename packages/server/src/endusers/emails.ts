import type { Language } from '@flowbox/shared';
import type { Template } from '../mail/templates.ts';

/** The emails of an end user's registration (docs/permissions.md "Registration"), EN and FR. */

export function confirmRegistrationEmail(
  language: Language,
  firstname: string,
  link: string,
  hours: number,
): Template {
  if (language === 'fr')
    return {
      subject: 'Confirmez votre adresse pour Flowbox Manager',
      text: `Bonjour ${firstname},\n\nPour confirmer votre demande d'inscription à Flowbox Manager, ouvrez ce lien (valable ${hours} heures) :\n\n${link}\n\nSi vous n'avez rien demandé, ignorez ce message : aucun compte ne sera créé.\n`,
    };
  return {
    subject: 'Confirm your address for Flowbox Manager',
    text: `Hello ${firstname},\n\nTo confirm your registration request for Flowbox Manager, open this link (valid for ${hours} hours):\n\n${link}\n\nIf you asked for nothing, ignore this message: no account will be created.\n`,
  };
}

export function registrationApprovedEmail(
  language: Language,
  firstname: string,
  loginLink: string,
): Template {
  if (language === 'fr')
    return {
      subject: 'Votre compte Flowbox Manager est activé',
      text: `Bonjour ${firstname},\n\nVotre compte Flowbox Manager est activé. Connectez-vous avec votre adresse et le mot de passe choisi à l'inscription :\n\n${loginLink}\n`,
    };
  return {
    subject: 'Your Flowbox Manager account is active',
    text: `Hello ${firstname},\n\nYour Flowbox Manager account is active. Sign in with your address and the password you chose when registering:\n\n${loginLink}\n`,
  };
}

export function registrationRefusedEmail(language: Language, firstname: string): Template {
  if (language === 'fr')
    return {
      subject: "Votre demande d'inscription à Flowbox Manager",
      text: `Bonjour ${firstname},\n\nLe gestionnaire de votre bâtiment n'a pas accepté votre demande d'inscription à Flowbox Manager. Pour en savoir plus, adressez-vous à lui.\n`,
    };
  return {
    subject: 'Your registration request for Flowbox Manager',
    text: `Hello ${firstname},\n\nYour building's manager did not accept your registration request for Flowbox Manager. To learn more, please contact them.\n`,
  };
}
