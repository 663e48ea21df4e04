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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
