import { useQuery } from '@tanstack/react-query';
import { pushSupport, thisBrowserEndpoint, type PushSupport } from '../../../lib/web-push.ts';
import { PUSH_QUERY_KEY } from './list-push-subscriptions.ts';

export type ThisBrowserPush = { support: PushSupport; endpoint: string | null };

/** What this browser allows, and the endpoint it is subscribed with (asked of the browser, not the API). */
export const useThisBrowserPush = () =>
  useQuery({
    queryKey: [...PUSH_QUERY_KEY, 'this-browser'],
    queryFn: async (): Promise<ThisBrowserPush> => {
      const support = pushSupport();
      return { support, endpoint: support === 'supported' ? await thisBrowserEndpoint() : null };
    },
  });
