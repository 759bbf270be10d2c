import { translator, type Translator } from '../../../shared/i18n/translator.js';

/**
 * What a device is, from its browser's User-Agent, to tell one's devices apart in 'Notifications': 'Chrome on
 * Android', 'Safari on iPhone'. A browser or system it does not know is named by what it does know ('A browser').
 */
export function deviceName(userAgent: string | undefined, tr: Translator = translator()): string {
  const ua = userAgent ?? '';
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /SamsungBrowser\//.test(ua)
      ? 'Samsung Internet'
      : /OPR\/|Opera/.test(ua)
        ? 'Opera'
        : /Firefox\/|FxiOS\//.test(ua)
          ? 'Firefox'
          : /Chrome\/|CriOS\/|Chromium\//.test(ua)
            ? 'Chrome'
            : /Safari\//.test(ua)
              ? 'Safari'
              : undefined;
  const system = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? 'Android'
        : /CrOS/.test(ua)
          ? 'ChromeOS'
          : /Windows/.test(ua)
            ? 'Windows'
            : /Mac OS X|Macintosh/.test(ua)
              ? 'Mac'
              : /Linux/.test(ua)
                ? 'Linux'
                : undefined;
  // translators: a device's name, as its browser tells it ('Firefox on Android')
  if (browser && system) return tr.t('{browser} on {system}', { browser, system });
  return browser ?? (system ? tr.t('A browser on {system}', { system }) : tr.t('A browser'));
}
