import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RuleOverride, RuleOverrideInput } from '../../shared/jurisdictions.js';
import { msg } from '../../shared/i18n/translator.js';
import { ruleOverrides } from '../db/schema.js';
import { findKitchen } from '../data/kitchen-queries.js';
import type { User } from '../identity/users.js';
import { badRequest, HttpError } from '../lib/errors.js';
import { mutate } from '../events/mutate.js';
import { recordAction } from './moderation-queries.js';

type App = Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'jurisdictions'>;
type Operator = Pick<User, 'id' | 'email'>;

const noTarget = (id: string) =>
  new HttpError(404, 'NOT_FOUND', msg('No profile or kitchen {id}'), 'target', undefined, { id });

/**
 * An operator overrides a profile's value for every kitchen under it (`scope` 'profile', `target` its id, e.g.
 * 'us/ca/santa-barbara') or for one kitchen ('kitchen', its uid): it replaces the previous override of the same key
 * there, and is recorded with who and why in the operators' log, in the same transaction (ADR 27). 404 naming
 * `target` for no such profile or kitchen.
 */
export async function overrideRule(
  app: App,
  operator: Operator,
  input: RuleOverrideInput,
): Promise<RuleOverride> {
  if (input.scope === 'profile' && !app.jurisdictions.has(input.target)) throw noTarget(input.target);
  if (input.scope === 'kitchen') {
    if (!z.uuid().safeParse(input.target).success)
      throw badRequest(msg('target must be a kitchen id'), 'target');
    if (!(await findKitchen(app.db, input.target))) throw noTarget(input.target);
  }
  return mutate(app, async (tx, record) => {
    const values = {
      scope: input.scope,
      target: input.target,
      key: input.key,
      value: input.value,
      reason: input.reason,
      operatorId: operator.id,
      operatorEmail: operator.email,
      createdAt: sql`clock_timestamp()`,
    };
    const [row] = await tx
      .insert(ruleOverrides)
      .values(values)
      .onConflictDoUpdate({
        target: [ruleOverrides.scope, ruleOverrides.target, ruleOverrides.key],
        set: values,
      })
      .returning();
    if (!row) throw new Error('the override was not written');
    const kitchen = input.scope === 'kitchen';
    await recordAction(tx, {
      operator,
      action: 'override_rule',
      targetKind: kitchen ? 'kitchen' : null,
      targetId: kitchen ? input.target : null,
      // The operator's own words only: what was overridden, for what, is on 'Rules and fees' in the operator's language.
      note: input.reason,
    });
    record({ type: 'operator.acted', action: 'override_rule', targetId: input.target });
    return {
      scope: row.scope,
      target: row.target,
      key: row.key,
      value: row.value,
      reason: row.reason,
      operatorEmail: row.operatorEmail,
      at: row.createdAt.toISOString(),
    };
  });
}
