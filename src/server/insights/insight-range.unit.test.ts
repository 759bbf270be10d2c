import { describe, expect, it } from 'vitest';
import { addDays, alignedDay, bucketsOf, daysBetween, insightsRange, periodSpans } from './insight-range.js';

// Sunday 29 November 2026, 23:30 UTC: already Monday the 30th in Kolkata (UTC+5:30).
const now = new Date('2026-11-29T23:30:00Z');

describe('the periods of Insights', () => {
  it("are the kitchen's days: this week from Monday, against the same days of last week", () => {
    expect(insightsRange({ period: 'week' }, 'UTC', now)).toEqual({
      period: 'week',
      from: '2026-11-23',
      to: '2026-11-29',
      previousFrom: '2026-11-16',
      previousTo: '2026-11-22',
      bucket: 'day',
    });
    // In Kolkata it is Monday: a week of one day so far, against last Monday.
    expect(insightsRange({ period: 'week' }, 'Asia/Kolkata', now)).toMatchObject({
      from: '2026-11-30',
      to: '2026-11-30',
      previousFrom: '2026-11-23',
      previousTo: '2026-11-23',
    });
  });

  it('are 28 days, or 12 months by week, each against as many days before it', () => {
    expect(insightsRange({ period: '4weeks' }, 'UTC', now)).toMatchObject({
      from: '2026-11-02',
      to: '2026-11-29',
      previousFrom: '2026-10-05',
      previousTo: '2026-11-01',
      bucket: 'day',
    });
    const year = insightsRange({ period: '12months' }, 'UTC', now);
    expect(year).toMatchObject({ from: '2025-12-01', to: '2026-11-29', bucket: 'week' });
    expect(year.previousTo).toBe('2025-11-30');
    const weeks = bucketsOf(year);
    // Weeks from Monday: the first holds 1 December 2025 (a Monday), the last this week.
    expect(weeks[0]).toBe('2025-12-01');
    expect(weeks.at(-1)).toBe('2026-11-23');
    expect(weeks).toHaveLength(52);
  });

  it('are custom days as asked, a day of the previous period drawn at the same place', () => {
    const range = insightsRange({ period: 'custom', from: '2026-02-01', to: '2026-02-10' }, 'UTC', now);
    expect(range).toMatchObject({ previousFrom: '2026-01-22', previousTo: '2026-01-31', bucket: 'day' });
    expect(bucketsOf(range)).toHaveLength(10);
    expect(alignedDay(range, '2026-01-22')).toBe('2026-02-01');
    expect(alignedDay(range, '2026-01-31')).toBe('2026-02-10');
  });
});

describe('periodSpans', () => {
  const days = (from: string, to: string) => {
    const { spans, days } = periodSpans(from, to);
    const covered = [
      ...spans.flatMap(({ level, start }) => Array.from({ length: 2 ** level }, (_, i) => addDays(start, i))),
      ...days.flatMap(([a, b]) => Array.from({ length: daysBetween(a, b) }, (_, i) => addDays(a, i))),
    ];
    return { spans, days, covered: covered.sort() };
  };

  it('cuts a period into aligned spans of 2^level days and the days left, covering each day once', () => {
    for (const [from, to] of [
      ['2025-12-01', '2026-11-29'],
      ['2024-12-02', '2025-11-30'],
      ['2026-11-02', '2026-11-29'],
      ['2026-11-29', '2026-11-29'],
      ['2023-01-01', '2026-11-29'],
    ] as const) {
      const { spans, covered } = days(from, to);
      expect(covered).toEqual(Array.from({ length: daysBetween(from, to) }, (_, i) => addDays(from, i)));
      for (const { level, start } of spans) {
        expect(level).toBeGreaterThanOrEqual(1);
        expect(level).toBeLessThanOrEqual(9);
        expect(daysBetween('2000-01-03', start) - 1).toSatisfy((n: number) => n % 2 ** level === 0);
      }
    }
    // A year is some ten spans, not 365 days.
    const year = days('2025-12-01', '2026-11-29');
    expect(year.spans.length + year.days.length).toBeLessThanOrEqual(18);
    expect(days('2026-11-29', '2026-11-29')).toMatchObject({
      spans: [],
      days: [['2026-11-29', '2026-11-29']],
    });
  });
});
