import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Providers } from './Providers';
import { RouteError } from './RouteError';
import './global.css';

/** Each app is its own lazy chunk: a customer never downloads the back-office (Refine). */
const router = createBrowserRouter([
  {
    path: '/admin/*',
    lazy: async () => ({ Component: (await import('../admin/App')).default }),
    ErrorBoundary: RouteError,
  },
  {
    path: '*',
    lazy: async () => ({ Component: (await import('../customer/App')).default }),
    ErrorBoundary: RouteError,
  },
]);

// index.html's skeleton stays until the first screen's code is here: rendering before the router
// has loaded it would replace the skeleton with an empty page.
const root = createRoot(document.getElementById('root')!);
const show = () =>
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
if (router.state.initialized) show();
else {
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    show();
  });
}
