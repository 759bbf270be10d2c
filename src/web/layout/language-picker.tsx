import { LOCALE_NAMES, LOCALES } from '../../shared/i18n/locales.js';
import { chooseLocale, pageLocale, t } from '../i18n.js';
import classes from './layout.module.css';

/**
 * The language of the product, in the top bar: remembered in this browser, and with the account of whoever is
 * signed in (their emails and pushes), then the page is shown again in it. A plain `<select>`: the phone's own
 * picker, and nothing to load.
 */
export function LanguagePicker() {
  const locale = pageLocale();
  return (
    <select
      className={classes.languagePicker}
      aria-label={t('Language')}
      value={LOCALES.includes(locale as never) ? locale : 'en'}
      onChange={(event) => void changeLanguage(event.currentTarget.value)}
    >
      {LOCALES.map((code) => (
        <option key={code} value={code} lang={code}>
          {LOCALE_NAMES[code]}
        </option>
      ))}
    </select>
  );
}

async function changeLanguage(locale: string) {
  chooseLocale(locale);
  try {
    const { api } = await import('../lib/api-client.js');
    const session = await api.get<Record<string, unknown>>('/api/session');
    await Promise.all(
      ['kitchen', 'customer', 'operator']
        .filter((role) => session[role])
        .map((role) => api.put(`/api/account/${role}/language`, { locale })),
    );
  } catch (error) {
    // The browser remembers it all the same; the account learns it at the next change.
    console.warn('The language could not be saved with the account', error);
  }
  location.reload();
}
