import { useQuery } from '@tanstack/react-query';
import type { SessionState } from '../../shared/auth.js';
import { api } from '../lib/api-client.js';

export const sessionKey = ['session'] as const;

/** Who is signed in, as a kitchen owner, as a customer and as an operator (separate sessions). */
export function useSession() {
  return useQuery({
    queryKey: sessionKey,
    queryFn: () => api.get<SessionState>('/api/session'),
    staleTime: 60_000,
  });
}
