import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ToastProvider } from '../components/Toasts.tsx';
import { setSessionEndedHandler } from '../lib/api-client.ts';
import { queryClient } from '../lib/query-client.ts';
import { paths } from '../paths.ts';
import { router } from './router.tsx';

// spec §4: logging out (or a failed refresh) resets the user and goes to /login.
// After an expired session the user comes back to where they were once logged in again.
setSessionEndedHandler((reason) => {
  const { pathname, search } = window.location;
  const back = reason === 'expired' && pathname !== paths.login.path ? pathname + search : undefined;
  // Leave the signed-in pages first, so none of them renders without its user.
  void router.navigate(paths.login.getHref(back), { replace: true }).then(() => queryClient.clear());
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  );
}
