import { describe, expect, it } from 'vitest';
import { alignedDay, bucketsOf, insightsRange, monthSpans } from './insight-range.js';

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

describe('monthSpans', () => {
  it('cuts a period into whole months and the days at its edges', () => {
    expect(monthSpans('2025-12-01', '2026-11-29')).toEqual({
      months: ['2025-12-01', '2026-11-01'],
      days: [['2026-11-01', '2026-11-29']],
    });
    expect(monthSpans('2024-12-02', '2025-11-30')).toEqual({
      months: ['2025-01-01', '2025-12-01'],
      days: [['2024-12-02', '2024-12-31']],
    });
    expect(monthSpans('2026-01-31', '2026-03-01')).toEqual({
      months: ['2026-02-01', '2026-03-01'],
      days: [
        ['2026-01-31', '2026-01-31'],
        ['2026-03-01', '2026-03-01'],
      ],
    });
    expect(monthSpans('2026-11-02', '2026-11-29')).toEqual({
      months: null,
      days: [['2026-11-02', '2026-11-29']],
    });
    expect(monthSpans('2026-02-01', '2026-02-28')).toEqual({
      months: ['2026-02-01', '2026-03-01'],
      days: [],
    });
  });
});
