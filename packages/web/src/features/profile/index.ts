export { useUpdateProfile } from './api/update-profile.ts';
