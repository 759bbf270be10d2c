import { z } from 'zod';

/** The body of every 4xx/5xx answer of the API. `field` names the first offending field, when there is one. */
export const ApiErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
