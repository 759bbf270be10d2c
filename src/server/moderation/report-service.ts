import type { FastifyInstance } from 'fastify';
import {
  ALREADY_REPORTED,
  REPORT_RATE_LIMIT,
  type Report,
  type ReportInput,
} from '../../shared/moderation.js';
import type { User } from '../identity/users.js';
import { badRequest, HttpError, tooManyRequests } from '../lib/errors.js';
import { mutate } from '../events/mutate.js';
import {
  findOpenReport,
  findReportTarget,
  insertReport,
  lockReporter,
  secondsUntilReporterMayReport,
} from './moderation-queries.js';

const THING = { chat_message: 'chat message', review: 'review', kitchen: 'kitchen' } as const;

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
    const thing = THING[input.targetKind];
    if (!target) throw new HttpError(404, 'NOT_FOUND', `No ${thing} ${input.targetId}`, 'targetId');
    if (target.ownerId === reporter.id) throw badRequest(`You cannot report your own ${thing}`, 'targetId');
    await lockReporter(tx, reporter.id);
    if (await findOpenReport(tx, reporter.id, input))
      throw new HttpError(
        409,
        ALREADY_REPORTED,
        `You have already reported this ${thing}; an operator will look at it.`,
        'targetId',
      );
    const wait = await secondsUntilReporterMayReport(tx, reporter.id, REPORT_RATE_LIMIT);
    if (wait > 0)
      throw tooManyRequests(
        `You have sent many reports (at most ${REPORT_RATE_LIMIT.reports} every ${REPORT_RATE_LIMIT.windowMinutes} ` +
          `minutes). Please wait ${wait} seconds and try again.`,
        wait,
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
