import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES, negotiateLocale, type Locale } from '../../shared/i18n/locales.js';
import { messageKey, type Catalogue } from '../../shared/i18n/messages.js';
import { Translator } from '../../shared/i18n/translator.js';
import { compileCatalogues } from './catalogues.js';
import { argumentNames, compileMessage, compilePseudo } from './compile.js';
import { parsePo, writePo } from './po.js';

const ORDERS = '{count, plural, one {# order} other {# orders}}';
// What translators write for the English above, in each language's plural categories.
const TRANSLATED: Record<Exclude<Locale, 'en' | 'en-XA'>, string> = {
  es: '{count, plural, one {# pedido} other {# pedidos}}',
  fr: '{count, plural, one {# commande} other {# commandes}}',
  hi: '{count, plural, one {# ऑर्डर} other {# ऑर्डर}}',
  ar: '{count, plural, zero {لا طلبات} one {طلب واحد} two {طلبان} few {# طلبات} many {# طلبًا} other {# طلب}}',
};

const translatorFor = (locale: Locale, currency = 'USD') => {
  const messages: Catalogue =
    locale === 'en' || locale === 'en-XA'
      ? { [messageKey(ORDERS)]: compileMessage(ORDERS) }
      : { [messageKey(ORDERS)]: compileMessage(TRANSLATED[locale]) };
  return new Translator({ locale, messages, currency });
};

describe('money by locale', () => {
  it("keeps the spec's amounts in English: $2.99, $10.45", () => {
    const en = translatorFor('en');
    expect(en.money(299)).toBe('$2.99');
    expect(en.money(1045)).toBe('$10.45');
    expect(en.money(123456)).toBe('$1,234.56');
  });

  it.each([
    ['es', 'USD', 299, '2,99 US$'],
    ['fr', 'USD', 299, '2,99 $US'],
    ['hi', 'USD', 299, '$2.99'],
    ['ar', 'USD', 299, '‏2.99 US$'],
    ['fr', 'EUR', 123456, '1 234,56 €'],
    ['es', 'EUR', 123456, '1234,56 €'],
    ['hi', 'INR', 12345678, '₹1,23,456.78'],
  ] as const)('%s with %s: %i minor units are %s', (locale, currency, minor, text) => {
    // Intl's own spaces (narrow no-break) compared as plain spaces.
    expect(
      translatorFor(locale, currency)
        .money(minor)
        .replace(/[\u202f\u00a0]/g, ' '),
    ).toBe(text);
  });

  it('a zero-decimal currency (JPY) has no minor digits in any language', () => {
    expect(translatorFor('en', 'JPY').money(3245)).toBe('¥3,245');
    expect(
      translatorFor('fr', 'JPY')
        .money(3245)
        .replace(/[\u202f\u00a0]/g, ' '),
    ).toBe('3 245 JPY');
    expect(
      translatorFor('es', 'JPY')
        .money(3245)
        .replace(/[\u202f\u00a0]/g, ' '),
    ).toBe('3245 JPY');
    expect(translatorFor('hi', 'JPY').money(3245)).toBe('JP¥3,245');
    expect(
      translatorFor('ar', 'JPY')
        .money(3245)
        .replace(/[\u202f\u00a0]/g, ' '),
    ).toBe('‏3,245 JP¥');
  });
});

describe('plurals by locale', () => {
  it('English: 1 order, 2 orders', () => {
    const en = translatorFor('en');
    expect(en.t(ORDERS, { count: 1 })).toBe('1 order');
    expect(en.t(ORDERS, { count: 2 })).toBe('2 orders');
    expect(en.t(ORDERS, { count: 1000 })).toBe('1,000 orders');
  });

  it('Spanish, French and Hindi: one and other', () => {
    expect(translatorFor('es').t(ORDERS, { count: 1 })).toBe('1 pedido');
    expect(translatorFor('es').t(ORDERS, { count: 5 })).toBe('5 pedidos');
    // French counts 0 and 1 as one.
    expect(translatorFor('fr').t(ORDERS, { count: 0 })).toBe('0 commande');
    expect(translatorFor('fr').t(ORDERS, { count: 2 })).toBe('2 commandes');
    expect(translatorFor('hi').t(ORDERS, { count: 3 })).toBe('3 ऑर्डर');
  });

  it('Arabic: the six forms (in Latin digits, as CLDR now has it for ar)', () => {
    const ar = translatorFor('ar');
    expect(ar.t(ORDERS, { count: 0 })).toBe('لا طلبات');
    expect(ar.t(ORDERS, { count: 1 })).toBe('طلب واحد');
    expect(ar.t(ORDERS, { count: 2 })).toBe('طلبان');
    expect(ar.t(ORDERS, { count: 3 })).toBe('3 طلبات');
    expect(ar.t(ORDERS, { count: 11 })).toBe('11 طلبًا');
    expect(ar.t(ORDERS, { count: 100 })).toBe('100 طلب');
  });
});

describe('dates and times by locale', () => {
  const instant = new Date('2026-11-26T18:30:00Z');
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'long',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'Europe/Berlin',
  };
  it.each([
    ['en', 'Thursday 7:30 PM'],
    ['es', 'jueves, 19:30'],
    ['fr', 'jeudi 19:30'],
    ['hi', 'गुरुवार 7:30 pm'],
    ['ar', 'الخميس 7:30 م'],
  ] as const)('%s: %s (in the kitchen’s zone)', (locale, text) => {
    expect(
      translatorFor(locale)
        .dateFormat(options)
        .format(instant)
        .replace(/[\u202f\u00a0]/g, ' '),
    ).toBe(text);
  });

  it('a message with a date argument formats it in its language', () => {
    const message = compileMessage('Ordered on {day, date, long}');
    const fr = new Translator({
      locale: 'fr',
      messages: { [messageKey('Ordered on {day, date, long}')]: message },
      currency: 'EUR',
    });
    expect(fr.t('Ordered on {day, date, long}', { day: instant })).toBe('Ordered on 26 novembre 2026');
  });
});

describe('messages', () => {
  it('select, offsets, ordinals and tags', () => {
    const en = new Translator({ locale: 'en', messages: {}, currency: 'USD' });
    const add = (m: string) => en.add({ [messageKey(m)]: compileMessage(m) });
    const select = '{state, select, open {Open now} other {Closed}}';
    add(select);
    expect(en.t(select, { state: 'open' })).toBe('Open now');
    expect(en.t(select, { state: 'x' })).toBe('Closed');
    const ordinal = '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}';
    add(ordinal);
    expect([1, 2, 3, 4, 11, 22].map((n) => en.t(ordinal, { n }))).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '22nd',
    ]);
    const tagged = 'Total <b>{total}</b>';
    add(tagged);
    expect(en.parts(tagged, { total: '$3', b: (chunks) => ({ bold: chunks }) })).toEqual([
      'Total ',
      { bold: ['$3'] },
    ]);
  });

  it('a plain text is its own English, and a message not in the catalogue shows in English', () => {
    const es = new Translator({ locale: 'es', messages: {}, currency: 'USD' });
    expect(es.t('Full Menu')).toBe('Full Menu');
    expect(es.t('Hello {name}', { name: 'Asha' })).toBe('Hello Asha');
  });

  it('the pseudo-locale accents and lengthens text, keeping arguments', () => {
    const pseudo = compilePseudo('Hello {name}');
    const tr = new Translator({
      locale: 'en-XA',
      messages: { [messageKey('Hello {name}')]: pseudo },
      currency: 'USD',
    });
    expect(tr.t('Hello {name}', { name: 'Asha' })).toBe('⟦Ĥéļļö Asha··⟧');
  });

  it('names the arguments and tags a translation may use', () => {
    expect([...argumentNames('{n, plural, one {<b>#</b> by {who}} other {#}}')].sort()).toEqual([
      'b',
      'n',
      'who',
    ]);
  });

  it('refuses a message that is not valid ICU, naming it', () => {
    expect(() => compileMessage('{count, plural, one {#}}')).toThrow(/Not a valid ICU message.*count/);
  });
});

describe('right to left', () => {
  it('isolates a text value inside an Arabic sentence, not in a left-to-right language', () => {
    const message = 'Add {dish} to cart';
    const compiled = { [messageKey(message)]: compileMessage('أضف {dish} إلى السلة') };
    const ar = new Translator({ locale: 'ar', messages: compiled, currency: 'USD' });
    expect(ar.t(message, { dish: "Lola's Adobo (v2)" })).toBe("أضف \u2068Lola's Adobo (v2)\u2069 إلى السلة");
    const fr = new Translator({ locale: 'fr', messages: {}, currency: 'USD' });
    expect(fr.t(message, { dish: 'Adobo' })).toBe('Add Adobo to cart');
  });
});

describe('negotiating the language', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['ar', 'ar'],
    ['fr-CA,fr;q=0.9,en;q=0.8', 'fr'],
    ['de-DE, es;q=0.5, en;q=0.4', 'es'],
    ['de', 'en'],
    ['hi-IN;q=0.2, *;q=0.1', 'hi'],
    ['en;q=0, ar;q=0.5', 'ar'],
    ['es;q=abc, fr', 'fr'],
    ['x'.repeat(5000), 'en'],
  ])('%s → %s', (header, locale) => {
    expect(negotiateLocale(header)).toBe(locale);
  });
});

describe('PO files and catalogues', () => {
  it('reads what it writes: contexts, notes, references, flags, quotes and lines', () => {
    const po = {
      headers: { Language: 'fr', 'Content-Type': 'text/plain; charset=UTF-8' },
      entries: [
        {
          id: 'Order',
          context: 'verb',
          str: 'Commander',
          notes: ['A button'],
          references: ['a.tsx:1', 'b.tsx:2'],
          flags: [],
          comments: [],
        },
        {
          id: 'Say "hi"\nthen \\ go',
          str: 'Dis « salut »\npuis \\ va',
          notes: [],
          references: [],
          flags: ['fuzzy'],
          comments: ['checked'],
        },
      ],
    };
    expect(parsePo(writePo(po))).toEqual(po);
  });

  it('compiles every language from its PO file; an untranslated or fuzzy message is left out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'po-'));
    const entry = (id: string, str = '', flags: string[] = []) => ({
      id,
      str,
      notes: [],
      references: [],
      flags,
      comments: [],
    });
    writeFileSync(
      join(dir, 'messages.pot'),
      writePo({ headers: {}, entries: [entry('Full Menu'), entry(ORDERS), entry('Cart')] }),
    );
    for (const locale of LOCALES.filter((l) => l !== 'en'))
      writeFileSync(
        join(dir, `${locale}.po`),
        writePo({
          headers: {},
          entries: [
            entry('Full Menu', `Menu (${locale})`),
            entry(ORDERS, TRANSLATED[locale]),
            entry('Cart', 'X', ['fuzzy']),
          ],
        }),
      );
    const compiled = compileCatalogues(dir);
    // English sends only what has arguments: a plain text is its own.
    expect(Object.keys(compiled.en)).toEqual([messageKey(ORDERS)]);
    expect(compiled.fr[messageKey('Full Menu')]).toBe('Menu (fr)');
    expect(compiled.fr[messageKey('Cart')]).toBeUndefined();
    expect(Object.keys(compiled['en-XA'])).toHaveLength(3);
  });
});

describe('distances by locale', () => {
  it('miles in American English, kilometres elsewhere, each unit written in its language', async () => {
    const { formatDistance } = await import('../../shared/geo.js');
    const tr = (locale: Locale) => new Translator({ locale, messages: {}, currency: 'USD' });
    const spaced = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
    expect(formatDistance(5, tr('en'))).toBe('3.1 mi');
    expect(formatDistance(0.05, tr('en'))).toBe('0.1 mi');
    expect(formatDistance(30, tr('en'))).toBe('19 mi');
    expect(spaced(formatDistance(5, tr('fr')))).toBe('5 km');
    expect(spaced(formatDistance(1.25, tr('es')))).toBe('1.3 km'.replace('.', ','));
    expect(spaced(formatDistance(0.354, tr('fr')))).toBe('350 m');
    expect(spaced(formatDistance(12.4, tr('ar')))).toBe('12 كم');
    expect(spaced(formatDistance(5, tr('hi')))).toBe('5 कि॰मी॰');
  });
});
