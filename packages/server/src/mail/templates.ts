import type { Language } from '@flowbox/shared';

export type Template = { subject: string; text: string };

/** Invitation and reset emails in the recipient's language. */
export function invitationEmail(language: Language, firstname: string, link: string, days: number): Template {
  if (language === 'fr') {
    return {
      subject: 'Votre compte Flowbox Manager',
      text: `Bonjour ${firstname},\n\nUn compte Flowbox Manager a été créé pour vous. Choisissez votre mot de passe avec ce lien (valable ${days} jours, une seule fois) :\n\n${link}\n\nSi vous n'attendiez pas ce message, ignorez-le.\n`,
    };
  }
  return {
    subject: 'Your Flowbox Manager account',
    text: `Hello ${firstname},\n\nA Flowbox Manager account has been created for you. Choose your password with this link (valid ${days} days, single use):\n\n${link}\n\nIf you did not expect this message, ignore it.\n`,
  };
}

export function resetPasswordEmail(
  language: Language,
  firstname: string,
  link: string,
  minutes: number,
): Template {
  if (language === 'fr') {
    return {
      subject: 'Réinitialisation de votre mot de passe Flowbox Manager',
      text: `Bonjour ${firstname},\n\nPour choisir un nouveau mot de passe, ouvrez ce lien (valable ${minutes} minutes, une seule fois) :\n\n${link}\n\nSi vous n'avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.\n`,
    };
  }
  return {
    subject: 'Reset your Flowbox Manager password',
    text: `Hello ${firstname},\n\nTo choose a new password, open this link (valid ${minutes} minutes, single use):\n\n${link}\n\nIf you did not ask for this, ignore this message: your password stays as it is.\n`,
  };
}

/**
 * Someone registered with the address of an existing account. The registration answer is the same
 * as for a new address (no enumeration), so the owner learns it here, and only the owner.
 */
export function registrationExistsEmail(
  language: Language,
  firstname: string,
  loginLink: string,
  resetLink: string,
): Template {
  if (language === 'fr') {
    return {
      subject: 'Vous avez déjà un compte Flowbox Manager',
      text: `Bonjour ${firstname},\n\nQuelqu'un vient de demander une inscription à Flowbox Manager avec cette adresse, qui a déjà un compte. Si c'était vous, connectez-vous :\n\n${loginLink}\n\nMot de passe oublié ? Choisissez-en un nouveau ici :\n\n${resetLink}\n\nSi ce n'était pas vous, ignorez ce message : rien n'a changé.\n`,
    };
  }
  return {
    subject: 'You already have a Flowbox Manager account',
    text: `Hello ${firstname},\n\nSomeone has just asked to register for Flowbox Manager with this address, which already has an account. If it was you, sign in:\n\n${loginLink}\n\nForgot your password? Choose a new one here:\n\n${resetLink}\n\nIf it was not you, ignore this message: nothing has changed.\n`,
  };
}
