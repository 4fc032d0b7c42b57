import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { ApiError, apiRequest } from './api';

type On401 = 'returnNull' | 'throw';

/** The default reader: GET the first element of the query key; optionally a 401 gives null. */
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T> {
  return async ({ queryKey }) => {
    try {
      const res = await apiRequest('GET', String(queryKey[0]));
      const text = await res.text();
      return (text ? JSON.parse(text) : null) as T;
    } catch (err) {
      if (on401 === 'returnNull' && err instanceof ApiError && err.status === 401) return null as T;
      throw err;
    }
  };
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      retry: false,
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchInterval: false,
    },
    mutations: { retry: false },
  },
});
