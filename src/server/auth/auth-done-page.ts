import { AUTH_CHANNEL } from '../../shared/auth.js';
import { escapeHtml } from '../lib/html.js';
import { textDirection } from '../../shared/i18n/locales.js';
import { translator, type Translator } from '../../shared/i18n/translator.js';

/** The page a sign-in that could not start shows in the popup (a refusal, such as the rate limit). */
export function signInErrorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>HomeCooked sign-in</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head><body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem"><h1>Sign-in could not start</h1><p role="alert">${escapeHtml(message)}</p><p><a href="/" style="color:#c2410c">Back to HomeCooked</a></p></body></html>`;
}

/**
 * The page the sign-in popup ends on (and a failed full-page sign-in). `continueTo` must be a safe return path
 * (see safeReturnPath): the server decides where "Continue" leads, never the page's own query string.
 */
export function authDonePage(continueTo: string, tr: Translator = translator()): string {
  const e = escapeHtml;
  return `<!doctype html>
<html lang="${tr.locale}"${textDirection(tr.locale) === 'rtl' ? ' dir="rtl"' : ''}>
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${e(tr.t('HomeCooked sign-in'))}</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:28rem;padding:0 1rem;color:#212529}a{color:#c2410c}</style>
  </head>
  <body>
    <h1 id="title" data-ok="${e(tr.t('You are signed in'))}" data-failed="${e(tr.t('Sign-in did not complete'))}">${e(tr.t('Signing you in…'))}</h1>
    <p id="message" data-ok="${e(tr.t('You can close this window.'))}" data-failed="${e(tr.t('Please close this window and try again.'))}">${e(tr.t('This window closes by itself.'))}</p>
    <p><a id="continue" href="${escapeHtml(continueTo)}">${e(tr.t('Continue to HomeCooked'))}</a></p>
    <script src="/auth/done.js"></script>
  </body>
</html>
`;
}

/**
 * The done page's script (no inline script: our CSP forbids it). It tells our tabs how the sign-in ended, naming
 * the attempt it answers: anyone can open this page with any query, so a tab acts only on the attempt it started.
 */
export const AUTH_DONE_JS = `(function () {
  var params = new URLSearchParams(location.search);
  var ok = params.get('status') === 'ok';
  var role = params.get('role') === 'kitchen' || params.get('role') === 'operator' ? params.get('role') : 'customer';
  var message = { type: ok ? 'homecooked:signed-in' : 'homecooked:sign-in-failed', role: role, attempt: params.get('attempt') };
  var told = false;
  try {
    // Reading a foreign opener's origin throws: only a page of ours is told.
    if (window.opener && window.opener !== window && window.opener.location.origin === location.origin) { window.opener.postMessage(message, location.origin); told = true; }
  } catch (e) {}
  try {
    if (typeof BroadcastChannel === 'function') { var channel = new BroadcastChannel(${JSON.stringify(AUTH_CHANNEL)}); channel.postMessage(message); channel.close(); told = true; }
  } catch (e) {}
  // The words, in the page's language, are the page's own (data-ok, data-failed).
  ['title', 'message'].forEach(function (id) {
    var element = document.getElementById(id);
    element.textContent = element.getAttribute(ok ? 'data-ok' : 'data-failed');
  });
  // A window we opened by script may close itself, even where an opener policy cut window.opener.
  if (told) setTimeout(function () { window.close(); }, 50);
})();
`;
