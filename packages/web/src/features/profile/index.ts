export { accountLanguageAfterSaves, useUpdateProfile } from './api/update-profile.ts';
