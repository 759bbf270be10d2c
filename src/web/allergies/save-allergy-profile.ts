import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AllergyProfile, AllergyProfileInput } from '../../shared/allergen-declaration.js';
import { api } from '../lib/api-client.js';
import { allergiesKey, read, write } from './use-allergy-profile.js';

/**
 * Saves 'Your allergies': with the account (signed in) or in this browser. Apart from useAllergyProfile, which every
 * menu and the landing page read: only the form saves, and it loads on the first press (allergy-filter.tsx).
 */
export function useSaveAllergyProfile(signedIn: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AllergyProfileInput) => {
      if (!signedIn) {
        write({ ...read(), ...input });
        return;
      }
      queryClient.setQueryData(allergiesKey, await api.put<AllergyProfile>('/api/account/allergies', input));
    },
  });
}
