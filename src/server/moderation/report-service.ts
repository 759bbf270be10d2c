import type { FastifyInstance } from 'fastify';
import {
  ALREADY_REPORTED,
  REPORT_RATE_LIMIT,
  type Report,
  type ReportInput,
} from '../../shared/moderation.js';
import type { User } from '../identity/users.js';
import { badRequest, HttpError, tooManyRequests } from '../lib/errors.js';
import { msg } from '../../shared/i18n/translator.js';
import { mutate } from '../events/mutate.js';
import {
  findOpenReport,
  findReportTarget,
  insertReport,
  lockReporter,
  secondsUntilReporterMayReport,
} from './moderation-queries.js';

// Each refusal as a whole sentence per kind of target (English ICU messages, sent in the reporter's language).
const NO_SUCH = {
  chat_message: msg('No chat message {id}'),
  review: msg('No review {id}'),
  kitchen: msg('No kitchen {id}'),
} as const;
const YOUR_OWN = {
  chat_message: msg('You cannot report your own chat message'),
  review: msg('You cannot report your own review'),
  kitchen: msg('You cannot report your own kitchen'),
} as const;
const ALREADY = {
  chat_message: msg('You have already reported this chat message; an operator will look at it.'),
  review: msg('You have already reported this review; an operator will look at it.'),
  kitchen: msg('You have already reported this kitchen; an operator will look at it.'),
} as const;

/**
 * Files `reporter`'s report: 404 naming the target when there is no such (visible) thing, 400 for one's own,
 * 409 ALREADY_REPORTED while the same reporter's report of it is still open, 429 beyond the per-user limit.
 * The reporter's writes are serialised, so two reports sent at once cannot both pass the checks.
 */
export function fileReport(
  app: Pick<FastifyInstance, 'db' | 'bus' | 'reactions'>,
  reporter: User,
  input: ReportInput,
): Promise<Report> {
  return mutate(app, async (tx, record) => {
    const target = await findReportTarget(tx, input.targetKind, input.targetId);
    const kind = input.targetKind;
    if (!target)
      throw new HttpError(404, 'NOT_FOUND', NO_SUCH[kind], 'targetId', undefined, { id: input.targetId });
    if (target.ownerId === reporter.id) throw badRequest(YOUR_OWN[kind], 'targetId');
    await lockReporter(tx, reporter.id);
    if (await findOpenReport(tx, reporter.id, input))
      throw new HttpError(409, ALREADY_REPORTED, ALREADY[kind], 'targetId');
    const wait = await secondsUntilReporterMayReport(tx, reporter.id, REPORT_RATE_LIMIT);
    if (wait > 0)
      throw tooManyRequests(
        'You have sent many reports (at most {reports} every {minutes} minutes). Please wait {seconds} seconds and try again.',
        wait,
        {
          reports: REPORT_RATE_LIMIT.reports,
          minutes: REPORT_RATE_LIMIT.windowMinutes,
          seconds: String(wait),
        },
      );
    const report = await insertReport(tx, reporter.id, input);
    record({
      type: 'report.filed',
      reportId: report.id,
      kitchenUid: input.targetKind === 'kitchen' ? target.ownerId : null,
    });
    return report;
  });
}
