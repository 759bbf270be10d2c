import { useMutation } from '@tanstack/react-query';
import type { Report, ReportInput } from '../../shared/moderation.js';
import { api } from '../lib/api-client.js';

/** `POST /api/reports`: tells the operators about a chat message, a review or a kitchen. */
export function useReport() {
  return useMutation({ mutationFn: (input: ReportInput) => api.post<Report>('/api/reports', input) });
}
