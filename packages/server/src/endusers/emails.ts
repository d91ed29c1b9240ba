import type { Language } from '@flowbox/shared';
import type { Template } from '../mail/templates.ts';

/*
 * The emails of an end user's registration (docs/permissions.md "Registration"), EN and FR. They
 * go to an address anyone may have typed in the form: none carries a word the registrant wrote
 * (not even a name to greet), only the product's own text and its link, so that the form cannot
 * send a stranger a message of its author's ("Hello Your account is locked. Visit …").
 */

export function confirmRegistrationEmail(language: Language, link: string, hours: number): Template {
  if (language === 'fr')
    return {
      subject: 'Confirmez votre adresse pour Flowbox Manager',
      text: `Bonjour,\n\nUne demande d'inscription à Flowbox Manager a été faite avec cette adresse. Si elle vient de vous, ouvrez ce lien (valable ${hours} heures) et choisissez-y le mot de passe de votre compte :\n\n${link}\n\nSi vous n'avez rien demandé, ignorez ce message : aucun compte ne sera créé.\n`,
    };
  return {
    subject: 'Confirm your address for Flowbox Manager',
    text: `Hello,\n\nA registration request for Flowbox Manager was made with this address. If it was you, open this link (valid for ${hours} hours) and choose your account's password there:\n\n${link}\n\nIf you asked for nothing, ignore this message: no account will be created.\n`,
  };
}

export function registrationApprovedEmail(language: Language, loginLink: string): Template {
  if (language === 'fr')
    return {
      subject: 'Votre compte Flowbox Manager est activé',
      text: `Bonjour,\n\nVotre compte Flowbox Manager est activé. Connectez-vous avec votre adresse et le mot de passe choisi en confirmant votre adresse :\n\n${loginLink}\n`,
    };
  return {
    subject: 'Your Flowbox Manager account is active',
    text: `Hello,\n\nYour Flowbox Manager account is active. Sign in with your address and the password you chose when confirming it:\n\n${loginLink}\n`,
  };
}

export function registrationRefusedEmail(language: Language): Template {
  if (language === 'fr')
    return {
      subject: "Votre demande d'inscription à Flowbox Manager",
      text: `Bonjour,\n\nLe gestionnaire de votre bâtiment n'a pas accepté votre demande d'inscription à Flowbox Manager. Pour en savoir plus, adressez-vous à lui.\n`,
    };
  return {
    subject: 'Your registration request for Flowbox Manager',
    text: `Hello,\n\nYour building's manager did not accept your registration request for Flowbox Manager. To learn more, please contact them.\n`,
  };
}
