import { describe, expect, it } from 'vitest';
import { dueWeek, planWeekAt, upcomingWeeks, type PlanTiming } from './plans.js';

const plan = (overrides: Partial<PlanTiming> = {}): PlanTiming => ({
  weekday: 'mon',
  slotTime: '18:00',
  timeZone: 'Europe/London',
  cutoffHours: 48,
  ...overrides,
});

describe("a plan's weeks, in the kitchen's time zone", () => {
  it('keeps the slot at its wall time across a clock change, and the cut-off in real hours', () => {
    // London goes back on Sunday 25 October 2026: Monday 19 is summer time (UTC+1), Monday 26 winter (UTC).
    expect(planWeekAt(plan(), '2026-10-19').slotStart.toISOString()).toBe('2026-10-19T17:00:00.000Z');
    const after = planWeekAt(plan(), '2026-10-26');
    expect(after.slotStart.toISOString()).toBe('2026-10-26T18:00:00.000Z');
    // 48 real hours before: Saturday 18:00 UTC, which is 19:00 in London (still summer time then).
    expect(after.cutoff.toISOString()).toBe('2026-10-24T18:00:00.000Z');
  });

  it("lists the weeks from the kitchen's today, on its weekday, soonest first", () => {
    // Monday 19 October 2026, 23:30 UTC is Tuesday 10:30 in Sydney (UTC+11, summer time from 4 October).
    const now = new Date('2026-10-19T23:30:00Z');
    const sydney = plan({ weekday: 'tue', slotTime: '12:00', timeZone: 'Australia/Sydney' });
    expect(upcomingWeeks(sydney, now, 2).map((w) => [w.slotDate, w.slotStart.toISOString()])).toEqual([
      ['2026-10-20', '2026-10-20T01:00:00.000Z'],
      ['2026-10-27', '2026-10-27T01:00:00.000Z'],
    ]);
    // Its slot today has passed once 12:00 there has: the next is a week on.
    expect(upcomingWeeks(sydney, new Date('2026-10-20T01:00:00Z'), 1)[0]!.slotDate).toBe('2026-10-27');
    // Half-hour zones: Kolkata is UTC+5:30.
    const kolkata = plan({ weekday: 'wed', slotTime: '13:00', timeZone: 'Asia/Kolkata' });
    expect(upcomingWeeks(kolkata, now, 1)[0]!.slotStart.toISOString()).toBe('2026-10-21T07:30:00.000Z');
  });

  it('has a week due from its cut-off until its slot starts, never two', () => {
    const p = plan();
    const week = planWeekAt(p, '2026-10-26');
    expect(dueWeek(p, new Date(week.cutoff.getTime() - 1))).toBeUndefined();
    expect(dueWeek(p, week.cutoff)?.slotDate).toBe('2026-10-26');
    expect(dueWeek(p, new Date(week.slotStart.getTime() - 1))?.slotDate).toBe('2026-10-26');
    // At its start the week is gone, and the next one's cut-off (5 days off) has not come.
    expect(dueWeek(p, week.slotStart)).toBeUndefined();
    // The longest cut-off (5 days) still leaves one week due at a time.
    const long = plan({ cutoffHours: 120 });
    for (let hour = 0; hour < 24 * 14; hour++) {
      const at = new Date(Date.parse('2026-10-12T00:00:00Z') + hour * 3_600_000);
      const due = dueWeek(long, at);
      if (due) expect(due.slotStart.getTime() - at.getTime()).toBeLessThanOrEqual(120 * 3_600_000);
    }
  });
});
