import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PortalLayout } from './PortalLayout';

// Only the portal's screens read through react-query: the login and sign-up screens load without it.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

export function PortalRoot({ built }: { built: (path: string) => boolean }) {
  return (
    <QueryClientProvider client={queryClient}>
      <PortalLayout built={built} />
    </QueryClientProvider>
  );
}
