import type { FeatureMessageKey } from './features.ts';
import { shellEn } from './shell.ts';

/**
 * UI texts of the shell and the public pages, English (source and default language); the signed-in
 * screens' texts are in features.ts. Server messages come from MESSAGES in @flowbox/shared.
 */
export const en = {
  'common.actions': 'Actions',
  'common.back_home': 'Back to the home page',
  'common.back_to_login': 'Back to sign in',
  'common.cancel': 'Cancel',
  'common.labelled': '{{label}}: {{value}}',
  'common.close': 'Close',
  'common.delete': 'Delete',
  'common.dismiss': 'Dismiss',
  'common.edit': 'Edit',
  'common.loading': 'Loading…',
  'common.no_results': 'Nothing matches your search.',
  'common.save': 'Save',

  'dialog.error': 'Error!',
  'dialog.warning': 'Warning!',
  'nav.main': 'Main navigation',
  'nav.menu': 'Menu',
  'nav.skip': 'Skip to main content',
  'nav.breadcrumbs': 'Breadcrumbs',
  'nav.dashboard': 'Dashboard',
  'nav.customers': 'Customers',
  'nav.my_customer': 'My customer',
  'nav.sites': 'Sites',
  'nav.flovea_managers': 'Flovea managers',
  'nav.outbox': 'Email outbox',
  'nav.assistant': 'Set-up assistant',
  'nav.profile': 'My profile',
  'nav.logout': 'Log out',

  'footer.label': 'Useful links',
  'footer.status': 'Service status',
  'footer.documentation': 'User documentation',
  'footer.support': 'Support',
  'footer.terms': 'Terms of use',
  'footer.privacy': 'Privacy policy',

  'language.switch': 'Language',
  'language.en': 'English',
  'language.fr': 'French',

  'fields.name': 'Name',
  'fields.firstname': 'First name',
  'fields.lastname': 'Last name',
  'fields.email': 'Email',
  'fields.password': 'Password',
  'fields.new_password': 'New password',
  'fields.current_password': 'Current password',
  'fields.password_confirmation': 'Password confirmation',
  'fields.password_hint': 'At least 8 characters, with at least one number and one letter.',
  'fields.language': 'Language',
  'fields.address': 'Address',
  'fields.role': 'Role',
  'fields.phone': 'Phone',
  'fields.contact_name': 'Contact name',
  'fields.subscription_date': 'Subscription date',
  'fields.created_at': 'Created on',
  'fields.last_logged_in': 'Last sign-in',
  'fields.flowbox_serial': 'Flowbox serial number',
  'fields.claim_code': 'Claim code',
  'fields.alert_notification_enabled': 'Receive alert notifications',

  'login.title': 'Sign in',
  'login.subtitle': 'Manage your flowbox water-flow monitors.',
  'login.submit': 'Sign in',
  'login.forgot': 'Forgot your password?',
  'login.no_account': 'Your building has a flowbox?',
  'login.register': 'Create an account',

  'register.title': 'Create an account',
  'register.subtitle':
    'For residents whose building is already equipped with a flowbox. We email you a link to confirm your address; you choose your password there.',
  'register.accept_terms': 'I accept the',
  'register.submit': 'Create my account',
  'register.have_account': 'Already have an account?',
  'register.done_title': 'Registration recorded',
  'register.claim_code_hint':
    'The 12-character code your building’s manager gave you (for example ABCD-EFGH-JKMN).',
  'register.serial_optional_hint': 'Optional: printed on the label of the flowbox fitted in your flat.',
  'register_confirm.title': 'Confirming your address',
  'register_confirm.subtitle':
    'Choose your account’s password: confirming your address with it sends your request on.',
  'register_confirm.submit': 'Confirm my address',
  'register_confirm.invalid_link':
    'This link does not work any more: it has been used already, or it is older than 48 hours. If you opened it before, your request is with your building’s manager; otherwise, register again.',
  'register_confirm.register_again': 'Register again',

  'reset_request.title': 'Reset your password',
  'reset_request.subtitle':
    'Enter your email: if an account exists, we send you a link to choose a new password.',
  'reset_request.submit': 'Send the link',
  'reset_password.title': 'Choose a new password',
  'reset_password.subtitle': 'Enter your new password twice.',
  'reset_password.submit': 'Save the new password',
  'reset_password.ask_again': 'Ask for a new link',
  'set_password.ask_again': 'Ask whoever invited you to send a new invitation.',
  'token_password.expired_title': 'This link no longer works',
  'token_password.expired': 'It has expired or was already used.',
  'set_password.title': 'Choose your password',
  'set_password.subtitle': 'Welcome! Choose the password of your new account.',
  'set_password.submit': 'Save my password',

  'toast.user_created': 'User created: an invitation email has been sent',
  'toast.user_updated': 'User updated',
  'toast.user_deleted': 'User deleted',
  'toast.user_registered': 'Registration recorded',
  'toast.profile_updated': 'Your profile has been updated',
  'toast.permissions_updated': 'Permissions have been updated',
  'toast.customer_created': 'Customer created',
  'toast.customer_updated': 'Customer updated',
  'toast.customer_deleted': 'Customer deleted',
  'toast.site_created': 'Site created',
  'toast.site_updated': 'Site updated',
  'toast.site_deleted': 'Site deleted',

  'table.pagination': 'Pages',
  'table.previous': 'Previous',
  'table.next': 'Next',
  'table.range': '{{from}}–{{to}} of {{total}}',

  'not_found.title': 'Page not found',
  'not_found.text': 'The page you asked for does not exist or has moved.',

  'status.title': 'Service status',
  'status.up': 'Flowbox Manager is up and answering.',
  'status.down': 'Flowbox Manager cannot be reached at the moment.',
  'status.contact': 'To report a problem, write to',

  'terms.title': 'Terms of use',
  'terms.p1':
    'Flowbox Manager is provided to manage flowbox smart water-flow monitors and the buildings they equip.',
  'terms.p2':
    'Your account is personal: keep your password secret and tell your provider at once if you think someone else used it.',
  'terms.p3':
    'Actions taken in Flowbox Manager, such as closing a valve, act on real water networks. Use them with care; they are recorded in the activity log.',
  'terms.p4':
    'The provider may change these terms; you will be told of any important change when you next sign in.',
  'privacy.title': 'Privacy policy',
  'privacy.p1':
    'We keep your name, email, language, address and notification settings to run your account, and the water consumption measured by flowboxes to provide the service.',
  'privacy.p2':
    'Your data is used only to provide Flowbox Manager. It is never sold; it is shared only with the staff of your provider and of your organisation who need it.',
  'privacy.p3':
    'Two cookies keep you signed in (access_token and refresh_token); your language choice is kept in your browser. No advertising or tracking cookie is used.',
  'privacy.p4': 'You may ask to see, correct or delete your data by writing to support.',
  'help.title': 'User documentation',
  ...shellEn,
} as const;

export type CoreMessageKey = keyof typeof en;
export type UiMessageKey = CoreMessageKey | FeatureMessageKey;
