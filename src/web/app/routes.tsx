import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { Layout } from './layout';

// Every page is its own lazily loaded chunk (the home page too, so the first load stays small).
const page = (load: () => Promise<{ default: React.ComponentType }>) => {
  const C = lazy(load);
  return <C />;
};

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: '/', element: page(() => import('../routes/home')) },
      { path: '/templates', element: page(() => import('../routes/templates')) },
      { path: '/order', element: page(() => import('../routes/order')) },
      { path: '/order-success', element: page(() => import('../routes/order-success')) },
      { path: '/order-status/:token', element: page(() => import('../routes/order-status')) },
      { path: '/design', element: page(() => import('../routes/design')) },
      { path: '/create-card', element: page(() => import('../routes/create-card')) },
      { path: '/card-generator', element: page(() => import('../routes/card-generator')) },
      { path: '/ai-assistant', element: page(() => import('../routes/ai-assistant')) },
      { path: '/svg-templates', element: page(() => import('../routes/svg-templates')) },
      { path: '/profile', element: page(() => import('../routes/profile')) },
      { path: '/dashboard', element: page(() => import('../routes/dashboard')) },
      { path: '/admin', element: page(() => import('../routes/admin')) },
      { path: '/login', element: page(() => import('../routes/auth')) },
      { path: '/signup', element: page(() => import('../routes/auth')) },
      { path: '/forgot-password', element: page(() => import('../routes/forgot-password')) },
      { path: '/reset-password', element: page(() => import('../routes/reset-password')) },
      { path: '/confirm-email', element: page(() => import('../routes/confirm-email')) },
      { path: '/account', element: page(() => import('../routes/account')) },
      { path: '/help', element: page(() => import('../routes/help')) },
      { path: '/faq', element: page(() => import('../routes/faq')) },
      { path: '/about', element: page(() => import('../routes/about')) },
      { path: '/reviews', element: page(() => import('../routes/reviews')) },
      { path: '/p/:id', element: page(() => import('../routes/public-profile')) },
      { path: '/shopify-test', element: page(() => import('../routes/shopify-test')) },
      { path: '/shopify-admin', element: page(() => import('../routes/shopify-admin')) },
      { path: '/not-found', element: page(() => import('../routes/not-found')) },
      { path: '*', element: page(() => import('../routes/not-found')) },
    ],
  },
]);
