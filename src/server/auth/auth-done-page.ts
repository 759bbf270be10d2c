import { AUTH_CHANNEL } from '../../shared/auth.js';

/** The page the sign-in popup ends on. Its script (no inline script: our CSP forbids it) tells the opener. */
export const AUTH_DONE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>HomeCooked sign-in</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:28rem;padding:0 1rem;color:#212529}a{color:#c2410c}</style>
  </head>
  <body>
    <h1 id="title">Signing you in…</h1>
    <p id="message">This window closes by itself.</p>
    <p><a id="continue" href="/">Continue to HomeCooked</a></p>
    <script src="/auth/done.js"></script>
  </body>
</html>
`;

export const AUTH_DONE_JS = `(function () {
  var params = new URLSearchParams(location.search);
  var ok = params.get('status') === 'ok';
  var role = params.get('role') === 'kitchen' ? 'kitchen' : 'customer';
  var message = { type: ok ? 'homecooked:signed-in' : 'homecooked:sign-in-failed', role: role };
  var told = false;
  try {
    if (window.opener && window.opener !== window) { window.opener.postMessage(message, location.origin); told = true; }
  } catch (e) {}
  try {
    if (typeof BroadcastChannel === 'function') { var channel = new BroadcastChannel(${JSON.stringify(AUTH_CHANNEL)}); channel.postMessage(message); channel.close(); told = true; }
  } catch (e) {}
  document.getElementById('title').textContent = ok ? 'You are signed in' : 'Sign-in did not complete';
  document.getElementById('message').textContent = ok ? 'You can close this window.' : 'Please close this window and try again.';
  var back = params.get('returnTo');
  if (back && back.charAt(0) === '/' && back.charAt(1) !== '/') document.getElementById('continue').setAttribute('href', back);
  // A window we opened by script may close itself, even where an opener policy cut window.opener.
  if (told) setTimeout(function () { window.close(); }, 50);
})();
`;
