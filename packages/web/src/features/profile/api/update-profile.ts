import type { ManagerUpdateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changeLanguage, isLanguage } from '../../../lib/i18n/index.ts';
import { ME_QUERY_KEY, useUser } from '../../auth/index.ts';
import { ownFamily, updateManager } from '../../managers/index.ts';

/**
 * Saves of the language, numbered: only the answer to the latest one may change the screen's
 * language. A switch to French, then back to English before the first save answered, must end in
 * English on the screen and in the account (issue 30: a language that switched by itself).
 */
let languageSaves = 0;
/** The language the latest save still on its way asks for; null once it answered. */
let pendingLanguage: { seq: number; language: string } | null = null;

/** The language the account holds once the saves on their way have answered: `saved` if none is. */
export function accountLanguageAfterSaves(saved: string): string {
  return pendingLanguage?.language ?? saved;
}

/**
 * spec §6: the profile is saved through the update endpoint of the user's own role; the answer
 * carries new tokens (saved by updateManager) and the language, which the UI follows. Saves run one
 * after the other (one mutation scope), so the server sees them in the order they were made.
 */
export function useUpdateProfile() {
  const user = useUser();
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: 'own-profile' },
    mutationFn: (input: ManagerUpdateInput) => updateManager(ownFamily(user), { managerId: user.id, input }),
    onMutate: (input) => {
      if (input.language === undefined) return { seq: null };
      const seq = ++languageSaves;
      pendingLanguage = { seq, language: input.language };
      return { seq };
    },
    onSuccess: async (answer, _input, started) => {
      queryClient.setQueryData(ME_QUERY_KEY, answer.user);
      const latest = started?.seq == null ? pendingLanguage === null : started.seq === languageSaves;
      if (started?.seq != null && started.seq === languageSaves) pendingLanguage = null;
      if (latest && isLanguage(answer.user.language)) await changeLanguage(answer.user.language);
    },
    onError: (_error, _input, started) => {
      if (started?.seq != null && started.seq === languageSaves) pendingLanguage = null;
    },
  });
}
