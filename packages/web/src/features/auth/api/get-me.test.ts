import type { ApiError, User } from '@flowbox/shared';
import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { meQueryOptions } from './get-me.ts';

// The API client's i18n set-up needs a browser; these tests never call the API.
vi.mock('../../../lib/i18n/index.ts', () => ({
  i18n: { t: (key: string) => key },
  currentLanguage: () => 'en',
  showUserLanguage: async () => undefined,
}));

const USER = { id: 'u' } as unknown as User;

/** The route guard's question, answered by `answers` in turn (an Error is a failed call). */
async function ask(key: string, answers: (User | Error)[]): Promise<{ calls: number; result: unknown }> {
  let calls = 0;
  const result = await queryClient
    .fetchQuery({
      ...meQueryOptions(),
      queryKey: ['users', 'me', key] as unknown as ReturnType<typeof meQueryOptions>['queryKey'],
      queryFn: async () => {
        const answer = answers[Math.min(calls++, answers.length - 1)]!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      retryDelay: 1,
    })
    .catch((error: unknown) => error);
  return { calls, result };
}

describe('who the signed-in user is (the route guard)', () => {
  it('is asked again after a network or server failure: a hiccup does not send the user to sign in', async () => {
    const hiccup = await ask('hiccup', [
      new TypeError('Failed to fetch'),
      new ApiRequestError(502, { code: 'errors.internal', message: 'Bad gateway' } as ApiError),
      USER,
    ]);
    expect(hiccup).toEqual({ calls: 3, result: USER });
  });

  it('is not asked again after a refusal: an ended session goes to the sign-in page at once', async () => {
    const ended = await ask('ended', [
      new ApiRequestError(401, { code: 'errors.auth_expired', message: 'Expired' } as ApiError),
    ]);
    expect(ended.calls).toBe(1);
    expect(ended.result).toBeInstanceOf(ApiRequestError);
  });
});
