import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WeeklyHours, TimeRange } from './opening-hours.js';
import {
  answerBy,
  dayName,
  findSlot,
  HOLD_DAYS,
  kitchenSlots,
  slotInViewerTime,
  slotLabel,
  slotTimes,
  slotsChangeAt,
  type SlotKitchen,
} from './slots.js';

const closedAllWeek: WeeklyHours = { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] };
const only = (change: Partial<WeeklyHours>): WeeklyHours => ({ ...closedAllWeek, ...change });
const everyDay = (...ranges: TimeRange[]): WeeklyHours => ({
  sun: ranges,
  mon: ranges,
  tue: ranges,
  wed: ranges,
  thu: ranges,
  fri: ranges,
  sat: ranges,
});
const at = (iso: string) => new Date(iso);
const iso = (text: string) => at(text).toISOString();

/** A kitchen in UTC, open 10:00–20:00 every day, with 30-minute slots, no notice, today only, no cut-off or cap. */
const kitchen = (
  ordering: Partial<SlotKitchen['ordering']> = {},
  hours: WeeklyHours | null = everyDay(['10:00', '20:00']),
  timeZone = 'UTC',
): SlotKitchen => ({
  hours,
  timeZone,
  ordering: {
    slotMinutes: 30,
    priorNoticeMinutes: 0,
    daysAhead: 0,
    sameDayCutoff: null,
    ordersPerSlot: null,
    ...ordering,
  },
});

const starts = (k: SlotKitchen, now: Date, taken?: Map<string, number>) =>
  kitchenSlots(k, now, taken).map((slot) => slot.start);

// 2026-11-24 is a Tuesday.
const NOON = at('2026-11-24T12:00:00Z');

describe('kitchenSlots', () => {
  it('lays slots of the kitchen’s length end to end from the opening, from now on', () => {
    const slots = kitchenSlots(kitchen(), NOON);
    expect(slots).toHaveLength(16); // 12:00 … 19:30
    expect(slots[0]).toEqual({
      start: iso('2026-11-24T12:00Z'),
      end: iso('2026-11-24T12:30Z'),
      date: '2026-11-24',
      left: null,
      available: true,
    });
    expect(slots.at(-1)?.start).toBe(iso('2026-11-24T19:30Z'));
    // A slot that has begun is gone.
    expect(starts(kitchen(), at('2026-11-24T12:10:00Z'))[0]).toBe(iso('2026-11-24T12:30Z'));
  });

  it('lists nothing for a kitchen that takes no orders for later', () => {
    expect(kitchenSlots(kitchen({ slotMinutes: null }), NOON)).toEqual([]);
  });

  it('keeps the prior notice: the first slot starts at least that long after now', () => {
    expect(starts(kitchen({ priorNoticeMinutes: 90 }), NOON)[0]).toBe(iso('2026-11-24T13:30Z'));
    // 12:10 + 60 min is 13:10: the 13:00 slot is too soon.
    expect(starts(kitchen({ priorNoticeMinutes: 60 }), at('2026-11-24T12:10Z'))[0]).toBe(
      iso('2026-11-24T13:30Z'),
    );
    // A notice longer than what is left of today: tomorrow's first slot (two days' notice at most).
    const twoDays = kitchen({ priorNoticeMinutes: 48 * 60, daysAhead: 5 });
    expect(starts(twoDays, NOON)[0]).toBe(iso('2026-11-26T12:00Z'));
  });

  it('has no slots today once the same-day cut-off has passed, and tomorrow’s still', () => {
    const k = kitchen({ sameDayCutoff: '11:00', daysAhead: 1 });
    expect(kitchenSlots(k, at('2026-11-24T10:59Z'))[0]?.start).toBe(iso('2026-11-24T11:00Z'));
    const afterCutOff = kitchenSlots(k, at('2026-11-24T11:00Z'));
    expect(afterCutOff).toHaveLength(20);
    expect(afterCutOff.every((slot) => slot.date === '2026-11-25')).toBe(true);
  });

  it('reaches the days ahead: 0 is today only, 5 the most', () => {
    const dates = (daysAhead: number) => [
      ...new Set(kitchenSlots(kitchen({ daysAhead }), NOON).map((slot) => slot.date)),
    ];
    expect(dates(0)).toEqual(['2026-11-24']);
    expect(dates(2)).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    expect(dates(5)).toEqual([
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(kitchenSlots(kitchen({ daysAhead: 5 }), NOON)).toHaveLength(16 + 5 * 20);
  });

  it('counts what each slot has taken against its cap', () => {
    const taken = new Map([
      [iso('2026-11-24T12:00Z'), 3],
      [iso('2026-11-24T12:30Z'), 1],
      [iso('2026-11-24T13:00Z'), 5], // over the cap (the cook lowered it)
    ]);
    const [full, one, over, none] = kitchenSlots(kitchen({ ordersPerSlot: 3 }), NOON, taken);
    expect(full).toMatchObject({ left: 0, available: false });
    expect(one).toMatchObject({ left: 2, available: true });
    expect(over).toMatchObject({ left: 0, available: false });
    expect(none).toMatchObject({ left: 3, available: true });
    // Without a cap the counts change nothing.
    expect(kitchenSlots(kitchen(), NOON, taken)[0]).toMatchObject({ left: null, available: true });
  });

  it('fits each slot wholly inside a range', () => {
    const k = (slotMinutes: number, hours: WeeklyHours) => kitchen({ slotMinutes }, hours);
    expect(starts(k(30, everyDay(['10:00', '11:45'])), at('2026-11-24T09:00Z'))).toEqual([
      iso('2026-11-24T10:00Z'),
      iso('2026-11-24T10:30Z'),
      iso('2026-11-24T11:00Z'),
    ]);
    expect(starts(k(45, everyDay(['10:00', '12:00'])), at('2026-11-24T09:00Z'))).toEqual([
      iso('2026-11-24T10:00Z'),
      iso('2026-11-24T10:45Z'),
    ]);
    // Two ranges a day, each laid out from its own start.
    expect(starts(k(60, everyDay(['11:00', '13:00'], ['17:30', '19:00'])), at('2026-11-24T09:00Z'))).toEqual([
      iso('2026-11-24T11:00Z'),
      iso('2026-11-24T12:00Z'),
      iso('2026-11-24T17:30Z'),
    ]);
  });

  it('follows a range across midnight into the next day, and into today from yesterday', () => {
    // Fridays 18:00–01:00: Friday evening's slots, then Saturday's first hour (a Saturday slot).
    const fridayNights = kitchen({ slotMinutes: 60, daysAhead: 1 }, only({ fri: [['18:00', '01:00']] }));
    const friday = kitchenSlots(fridayNights, at('2026-11-27T12:00Z'));
    expect(friday.map((slot) => slot.start)).toEqual([
      ...[18, 19, 20, 21, 22, 23].map((h) => iso(`2026-11-27T${h}:00Z`)),
      iso('2026-11-28T00:00Z'),
    ]);
    expect(friday.at(-1)?.date).toBe('2026-11-28');
    // Today only: Saturday's slot is beyond the days ahead.
    expect(
      kitchenSlots(
        { ...fridayNights, ordering: { ...fridayNights.ordering, daysAhead: 0 } },
        at('2026-11-27T12:00Z'),
      ),
    ).toHaveLength(6);
    // Just after midnight on Saturday, the rest of Friday's range is today's.
    expect(starts(fridayNights, at('2026-11-27T23:59Z'))).toEqual([iso('2026-11-28T00:00Z')]);
    const thursdayNights = kitchen({ slotMinutes: 60 }, only({ thu: [['22:00', '02:00']] }));
    expect(kitchenSlots(thursdayNights, at('2026-11-27T00:30Z'))).toEqual([
      expect.objectContaining({ start: iso('2026-11-27T01:00Z'), date: '2026-11-27' }),
    ]);
  });

  it('keeps the spec’s hours (10:00 AM - 8:15 PM) for a kitchen that never set any', () => {
    const half = kitchenSlots(kitchen({}, null), at('2026-11-24T09:00Z'));
    expect(half).toHaveLength(20); // 10:00 … 19:30; 20:00–20:30 does not fit
    expect(half.at(-1)?.start).toBe(iso('2026-11-24T19:30Z'));
    const quarter = kitchenSlots(kitchen({ slotMinutes: 15 }, null), at('2026-11-24T09:00Z'));
    expect(quarter).toHaveLength(41);
    expect(quarter.at(-1)?.end).toBe(iso('2026-11-24T20:15Z'));
  });

  describe('in America/New_York across 2026’s clock changes', () => {
    const NY = 'America/New_York';
    const allDay = (ordering: Partial<SlotKitchen['ordering']> = {}) =>
      kitchen({ slotMinutes: 60, ...ordering }, everyDay(['00:00', '24:00']), NY);

    it('has 23 hourly slots on the day the clocks spring forward (Sunday 8 March)', () => {
      const slots = kitchenSlots(allDay(), at('2026-03-08T05:00Z')); // midnight EST
      expect(slots).toHaveLength(23);
      expect(slots[0]?.start).toBe(iso('2026-03-08T05:00Z'));
      expect(slots.at(-1)?.start).toBe(iso('2026-03-09T03:00Z')); // 11 PM EDT
      expect(slots.at(-1)?.end).toBe(iso('2026-03-09T04:00Z')); // midnight EDT
      expect(slots.every((slot) => slot.date === '2026-03-08')).toBe(true);
      // Real hours: the second runs from 1 AM EST to 3 AM EDT.
      expect(slotTimes(slots[1]!, NY)).toBe('1:00–3:00 AM');
      expect(slotTimes(slots[2]!, NY)).toBe('3:00–4:00 AM');
    });

    it('has 25 hourly slots on the day the clocks fall back (Sunday 1 November)', () => {
      const slots = kitchenSlots(allDay(), at('2026-11-01T04:00Z')); // midnight EDT
      expect(slots).toHaveLength(25);
      expect(slots[0]?.start).toBe(iso('2026-11-01T04:00Z'));
      expect(slots.at(-1)?.start).toBe(iso('2026-11-02T04:00Z')); // 11 PM EST
      expect(slots.every((slot) => slot.date === '2026-11-01')).toBe(true);
    });

    it('keeps a 10:00–20:00 kitchen’s slots at 10 AM to 8 PM on either side of each change', () => {
      const tenToEight = kitchen({ slotMinutes: 60, daysAhead: 1 }, everyDay(['10:00', '20:00']), NY);
      const spring = kitchenSlots(tenToEight, at('2026-03-07T05:00Z'));
      expect(spring).toHaveLength(20);
      expect(spring[0]?.start).toBe(iso('2026-03-07T15:00Z')); // 10 AM EST
      expect(spring[10]?.start).toBe(iso('2026-03-08T14:00Z')); // 10 AM EDT
      expect(spring.at(-1)?.end).toBe(iso('2026-03-09T00:00Z')); // 8 PM EDT
      const autumn = kitchenSlots(tenToEight, at('2026-10-31T04:00Z'));
      expect(autumn).toHaveLength(20);
      expect(autumn[0]?.start).toBe(iso('2026-10-31T14:00Z')); // 10 AM EDT
      expect(autumn[10]?.start).toBe(iso('2026-11-01T15:00Z')); // 10 AM EST
      expect(autumn.at(-1)?.end).toBe(iso('2026-11-02T01:00Z')); // 8 PM EST
      expect(autumn.map((slot) => slotTimes(slot, NY))).toEqual([
        ...spring.map((slot) => slotTimes(slot, NY)),
      ]);
    });

    it('opens a range that starts in the skipped hour when the clocks show it: 3 AM', () => {
      // 02:00 on 8 March never shows in New York; 02:00–05:00 that night is 3 AM to 5 AM EDT.
      const early = kitchen({ slotMinutes: 60 }, only({ sun: [['02:00', '05:00']] }), NY);
      expect(starts(early, at('2026-03-08T05:00Z'))).toEqual([
        iso('2026-03-08T07:00Z'),
        iso('2026-03-08T08:00Z'),
      ]);
    });
  });

  it('works in Asia/Kolkata (UTC+5:30), its "today" ahead of UTC’s', () => {
    const k = kitchen({ daysAhead: 1 }, everyDay(['10:00', '12:00']), 'Asia/Kolkata');
    // 03:00 UTC is 08:30 there.
    const slots = kitchenSlots(k, at('2026-11-24T03:00Z'));
    expect(slots.slice(0, 4).map((slot) => slot.start)).toEqual([
      iso('2026-11-24T04:30Z'),
      iso('2026-11-24T05:00Z'),
      iso('2026-11-24T05:30Z'),
      iso('2026-11-24T06:00Z'),
    ]);
    expect(slots[0]?.date).toBe('2026-11-24');
    // 20:00 UTC on Tuesday is already Wednesday 01:30 there: today is Wednesday, tomorrow Thursday.
    expect([...new Set(kitchenSlots(k, at('2026-11-24T20:00Z')).map((slot) => slot.date))]).toEqual([
      '2026-11-25',
      '2026-11-26',
    ]);
    expect(slotLabel(slots[0]!, 'Asia/Kolkata', at('2026-11-24T03:00Z'))).toBe('Today 10:00–10:30 AM');
  });
});

describe('findSlot', () => {
  const k = kitchen({ priorNoticeMinutes: 60 });

  it('finds a slot by any spelling of its start, and answers with its own', () => {
    for (const spelling of [
      '2026-11-24T18:00:00.000Z',
      '2026-11-24T18:00Z',
      '2026-11-24T13:00:00-05:00',
      '2026-11-24T23:30:00+05:30',
    ])
      expect(findSlot(k, NOON, spelling)).toMatchObject({
        start: iso('2026-11-24T18:00Z'),
        end: iso('2026-11-24T18:30Z'),
      });
  });

  it('finds none off the grid, passed, too soon, beyond the days ahead, or for garbage', () => {
    expect(findSlot(k, NOON, '2026-11-24T18:10:00Z')).toBeUndefined();
    expect(findSlot(k, NOON, '2026-11-24T11:00:00Z')).toBeUndefined();
    expect(findSlot(k, NOON, '2026-11-24T12:30:00Z')).toBeUndefined(); // inside the hour's notice
    expect(findSlot(k, NOON, '2026-11-25T12:00:00Z')).toBeUndefined(); // today only
    expect(findSlot(k, NOON, 'tomorrow at six')).toBeUndefined();
    expect(findSlot(kitchen({ slotMinutes: null }), NOON, '2026-11-24T18:00:00Z')).toBeUndefined();
  });
});

describe('labels', () => {
  const slot = (start: string, minutes = 30) => ({
    start: iso(start),
    end: new Date(Date.parse(start) + minutes * 60_000).toISOString(),
  });

  it('names the day and the times in the kitchen’s time zone', () => {
    expect(slotLabel(slot('2026-11-24T18:00Z'), 'UTC', NOON)).toBe('Today 6:00–6:30 PM');
    expect(slotLabel(slot('2026-11-25T18:00Z'), 'UTC', NOON)).toBe('Tomorrow 6:00–6:30 PM');
    expect(slotLabel(slot('2026-11-27T18:00Z'), 'UTC', NOON)).toBe('Fri 27 Nov 6:00–6:30 PM');
    expect(slotTimes(slot('2026-11-24T11:30Z'), 'UTC')).toBe('11:30 AM–12:00 PM');
    expect(slotTimes(slot('2026-11-24T23:30Z'), 'UTC')).toBe('11:30 PM–12:00 AM');
    expect(slotTimes(slot('2026-11-24T23:00Z'), 'America/New_York')).toBe('6:00–6:30 PM');
    expect(dayName(at('2026-11-25T03:00Z'), 'America/New_York', NOON)).toBe('Today'); // still Tuesday there
    expect(dayName(at('2026-11-25T03:00Z'), 'UTC', NOON)).toBe('Tomorrow');
  });

  it('adds the customer’s own time when their zone shows another', () => {
    const evening = slot('2026-11-27T23:00Z'); // Friday 6 PM in New York
    expect(slotLabel(evening, 'America/New_York', NOON)).toBe('Fri 27 Nov 6:00–6:30 PM');
    expect(slotInViewerTime(evening, 'America/New_York', 'Europe/London', NOON)).toBe(
      'Fri 27 Nov 11:00–11:30 PM your time',
    );
    expect(slotInViewerTime(evening, 'America/New_York', 'Asia/Kolkata', NOON)).toBe(
      'Sat 28 Nov 4:30–5:00 AM your time',
    );
    // Another name for the same clock: nothing to add.
    expect(slotInViewerTime(evening, 'America/New_York', 'America/Toronto', NOON)).toBeUndefined();
    expect(slotInViewerTime(evening, 'America/New_York', 'America/New_York', NOON)).toBeUndefined();
  });
});

describe('answerBy', () => {
  const MIN = 60_000;
  const now = NOON;
  const after = (minutes: number) => new Date(now.getTime() + minutes * MIN);

  it('gives the kitchen until the slot’s prior notice begins', () => {
    expect(answerBy(after(24 * 60), 120, now, 15)).toEqual(after(22 * 60));
  });

  it('gives at least the minimum to a slot chosen at the edge of its notice', () => {
    expect(answerBy(after(125), 120, now, 15)).toEqual(after(15));
  });

  it('never runs past the slot’s start', () => {
    expect(answerBy(after(10), 0, now, 15)).toEqual(after(10));
  });

  it('never runs past the card hold', () => {
    expect(answerBy(after(8 * 24 * 60), 0, now, 15)).toEqual(after(HOLD_DAYS * 24 * 60));
  });
});

describe('slotsChangeAt', () => {
  it('names the first slot’s notice running out, the same-day cut-off and local midnight', () => {
    const k = kitchen({ priorNoticeMinutes: 60, sameDayCutoff: '15:00', daysAhead: 1 });
    // 13:00 is the first slot at noon with an hour's notice: it goes just after 12:00.
    expect(slotsChangeAt(k, NOON, kitchenSlots(k, NOON))).toBe(Date.parse('2026-11-24T12:00:00Z') + 1);
    const afterCutOff = at('2026-11-24T15:30:00Z');
    // Past the cut-off only tomorrow is listed (from 10:00, noticed at 09:00), and midnight comes first.
    expect(slotsChangeAt(k, afterCutOff, kitchenSlots(k, afterCutOff))).toBe(
      Date.parse('2026-11-25T00:00:00Z'),
    );
    const noNotice = kitchen({ sameDayCutoff: '10:15' });
    const early = at('2026-11-24T09:00:00Z');
    expect(slotsChangeAt(noNotice, early, kitchenSlots(noNotice, early))).toBe(
      Date.parse('2026-11-24T10:00:00Z') + 1,
    );
    expect(slotsChangeAt(kitchen({ slotMinutes: null }), NOON, [])).toBe(Infinity);
  });

  it('keeps the slots the same at every moment before it, in any zone, across a clock change', () => {
    fc.assert(
      fc.property(
        fc.record({
          zone: fc.constantFrom(
            'UTC',
            'America/New_York',
            'Asia/Kolkata',
            'Europe/London',
            'Australia/Lord_Howe',
          ),
          slotMinutes: fc.constantFrom(15, 30, 45, 60),
          priorNoticeMinutes: fc.integer({ min: 0, max: 300 }),
          daysAhead: fc.integer({ min: 0, max: 3 }),
          cutOff: fc.option(fc.constantFrom('09:30', '14:00', '23:45'), { nil: null }),
          overnight: fc.boolean(),
          // From a week before to a week after the US and UK clock changes of 2026-11-01 / 10-25.
          now: fc.integer({
            min: Date.parse('2026-10-20T00:00:00Z'),
            max: Date.parse('2026-11-08T00:00:00Z'),
          }),
          fraction: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        ({ zone, slotMinutes, priorNoticeMinutes, daysAhead, cutOff, overnight, now, fraction }) => {
          const k = kitchen(
            { slotMinutes, priorNoticeMinutes, daysAhead, sameDayCutoff: cutOff },
            overnight ? everyDay(['18:00', '02:00']) : everyDay(['07:00', '11:00'], ['16:00', '21:30']),
            zone,
          );
          const slots = kitchenSlots(k, new Date(now));
          const change = slotsChangeAt(k, new Date(now), slots);
          expect(change).toBeGreaterThan(now);
          // Any moment before the change, and the last one: the same slots.
          const later = Math.min(change - 1, now + Math.floor((change - now) * fraction));
          expect(kitchenSlots(k, new Date(later))).toEqual(slots);
          expect(kitchenSlots(k, new Date(change - 1))).toEqual(slots);
        },
      ),
      { numRuns: 300 },
    );
  });
});
