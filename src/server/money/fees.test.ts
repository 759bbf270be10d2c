import { expect, it } from 'vitest';
import { describeEachEngine } from '../test/test-app.js';

describeEachEngine(
  'GET /api/fees: what selling here costs a cook, said before they agree',
  (get) => {
    it("gives the platform's share of a card order's dishes, to anyone, as the deployment sets it", async () => {
      const res = await get().app.inject('/api/fees');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ cardPayments: true, commissionPercent: 12.5, upcoming: null });
      // A query string changes nothing (the route takes none).
      expect((await get().app.inject('/api/fees?commissionPercent=0')).json()).toEqual(res.json());
    });
  },
  { PAYMENTS: 'local', PLATFORM_COMMISSION_PERCENT: '12.5' },
);

describeEachEngine(
  'GET /api/fees on a marketplace that takes no cards',
  (get) => {
    it('says a cook pays nothing for cash orders', async () => {
      expect((await get().app.inject('/api/fees')).json()).toMatchObject({ cardPayments: false });
    });
  },
  { PAYMENTS: 'off' },
);
