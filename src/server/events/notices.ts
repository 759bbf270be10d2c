import { sql, type SQL } from 'drizzle-orm';
import type { NoticeKind } from '../../shared/notifications.js';

/**
 * A notification to be sent, as reactions derive it from what happened: to whom, of what kind, about what (an
 * order, a review, a kitchen), under a key that makes it told once however often the change is recorded.
 */
export interface Notice {
  key: string;
  recipientId: string;
  kind: NoticeKind;
  subjectId: string;
}

/**
 * The select-list expression that writes `notices` into the outbox (`hc_enqueue_notices`, migration 0015) in the
 * statement that selects it: in a transaction's own statement, or in a write that is one statement. Null when none.
 */
export function enqueueing(notices: readonly Notice[]): SQL {
  if (notices.length === 0) return sql`null`;
  const rows = notices.map((n) => ({
    key: n.key,
    recipient_id: n.recipientId,
    kind: n.kind,
    subject_id: n.subjectId,
  }));
  return sql`hc_enqueue_notices(${JSON.stringify(rows)}::jsonb)`;
}
