// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KitchenRules as KitchenRulesAnswer, Rules } from '../../shared/jurisdictions.js';
import type { KitchenDocument, KitchenDocuments } from '../../shared/kitchen-documents.js';
import { KitchenRules } from './kitchen-rules.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ownerUid = '00000000-0000-4000-8000-000000000001';
const rules: Rules = {
  sellingAllowed: true,
  sellingNote: null,
  permit: { name: 'MEHKO health permit', issuer: 'the county', showOnMenu: true },
  certificates: [
    { name: 'Food safety manager certificate', who: 'operator', withinDays: null },
    { name: 'Food handler card', who: 'helpers', withinDays: 30 },
  ],
  caps: { mealsPerDay: null, mealsPerWeek: null, grossPerYear: null, meal: 'dish-portion' },
  thirdPartyDelivery: false,
  sameDayService: true,
  forbiddenWords: [],
};
const answer = (rulesHere: Rules): KitchenRulesAnswer => ({
  profile: {
    id: 'us/ca/los-angeles',
    name: 'Los Angeles County',
    version: 1,
    rules: rulesHere,
    levels: [],
    fallback: false,
  },
  overrides: [],
  listing: { state: 'listed', reason: '', decidedAt: null },
  place: { countryCode: 'US', region: 'CA', county: 'Los Angeles' },
  counted: null,
});
const permit: KitchenDocument = {
  id: '00000000-0000-4000-8000-0000000000d1',
  kind: 'permit',
  number: 'LA-2026-0042',
  holder: '',
  expiresOn: '2027-06-30',
  addedAt: '2026-11-01T10:00:00.000Z',
  file: null,
};
const documents = (list: KitchenDocument[]): KitchenDocuments => ({
  documents: list,
  required: ['permit', 'food-safety-certificate'],
  pause: null,
  helpers: [],
  helperCard: null,
});

describe("'Rules for your kitchen'", () => {
  let root: Root | undefined;
  let container: HTMLElement;

  const show = async (rulesAnswer: KitchenRulesAnswer, documentsAnswer: KitchenDocuments) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const body = url === '/api/kitchen/rules' ? rulesAnswer : documentsAnswer;
        return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await act(async () => {
      root = createRoot(container);
      root.render(
        <MantineProvider>
          <QueryClientProvider client={client}>
            <KitchenRules ownerUid={ownerUid} />
          </QueryClientProvider>
        </MantineProvider>,
      );
    });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  };
  const row = (name: string) =>
    [...container.querySelectorAll('tr')]
      .find((tr) => tr.querySelector('th')?.textContent === name)
      ?.querySelector('td')?.textContent;

  beforeEach(() => {
    window.matchMedia ??= ((query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as unknown as typeof window.matchMedia;
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    vi.unstubAllGlobals();
  });

  it('says the permit number is required on the menu page but not shown yet, and what to do, before it is added', async () => {
    await show(answer(rules), documents([]));
    expect(row('Permit number on your menu page')).toBe(
      'Required here; not shown yet: add your permit number below, and customers will see it',
    );
  });

  it('says which number the menu page shows once the permit is added', async () => {
    await show(answer(rules), documents([permit]));
    expect(row('Permit number on your menu page')).toBe('Required here; shown now: LA-2026-0042');
  });

  it('says it is not required where the profile does not ask for it', async () => {
    await show(answer({ ...rules, permit: null }), documents([]));
    expect(row('Permit number on your menu page')).toBe('Not required here');
  });

  it('offers to attach a photo or PDF to a document added without one, and to replace the one a document has', async () => {
    const certificate: KitchenDocument = {
      ...permit,
      id: '00000000-0000-4000-8000-0000000000d2',
      kind: 'food-safety-certificate',
      number: 'FSM-7731',
      file: { type: 'pdf', url: '/api/document-files/00000000-0000-4000-8000-0000000000f1' },
    };
    await show(answer(rules), documents([permit, certificate]));
    const names = [...container.querySelectorAll('button[aria-label]')].map((b) =>
      b.getAttribute('aria-label'),
    );
    expect(names).toContain('Attach a photo or PDF to Permit number');
    expect(names).toContain('Replace the photo or PDF of Food safety certificate');
    expect(container.textContent).toContain('View the PDF');
  });

  it("shows each helper's card due by the profile's days, with the law, and the pause past it with whose card", async () => {
    await show(answer(rules), {
      ...documents([permit]),
      helperCard: {
        name: 'Food handler card',
        withinDays: 30,
        source: {
          title: 'California Health and Safety Code §113948 (food handler cards)',
          url: 'https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?sectionNum=113948.&lawCode=HSC',
        },
      },
      helpers: [
        { id: 'h1', name: 'Rosa', startedOn: '2026-11-24', dueOn: '2026-12-24', card: null },
        {
          id: 'h2',
          name: 'Sam',
          startedOn: '2026-12-01',
          dueOn: '2026-12-31',
          card: null,
        },
        {
          id: 'h3',
          name: 'Ana',
          startedOn: '2026-10-01',
          dueOn: '2026-10-31',
          card: { number: 'FH-1', expiresOn: '2029-10-01' },
        },
      ],
      pause: { kind: 'food-handler-card', expiredOn: null, holder: 'Rosa', dueOn: '2026-12-24' },
    });
    expect(container.textContent).toContain(
      'Paused: Rosa’s food handler card was due on Dec 24, 2026 and is not added',
    );
    expect(container.textContent).toContain(
      'Each helper needs a Food handler card within 30 days of starting.',
    );
    const law = [...container.querySelectorAll('a')].find((a) => a.textContent?.includes('§113948'));
    expect(law?.getAttribute('href')).toMatch(/sectionNum=113948/);
    const helperRow = (name: string) =>
      [...container.querySelectorAll('tr')]
        .find((tr) => tr.querySelector('td')?.textContent === name)
        ?.querySelectorAll('td');
    expect(helperRow('Rosa')?.[1]?.textContent).toBe('Nov 24, 2026');
    expect(helperRow('Rosa')?.[2]?.textContent).toBe(
      'Overdue since Dec 24, 2026: your kitchen is paused until it is added',
    );
    expect(helperRow('Sam')?.[2]?.textContent).toBe('Not added yet: add it above by Dec 31, 2026');
    expect(helperRow('Ana')?.[2]?.textContent).toBe('FH-1, valid until Oct 1, 2029');
  });
});
