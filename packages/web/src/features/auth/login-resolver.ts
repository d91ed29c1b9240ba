import { zodResolver } from '@hookform/resolvers/zod';
import { LoginSchema } from '@flowbox/shared';

/** The login form's check, in a chunk of its own (see LoginPage). */
export const loginResolver = zodResolver(LoginSchema);
