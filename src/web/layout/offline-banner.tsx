import { t } from '../i18n.js';
import classes from '../lib/notice.module.css';
import { useEffect, useState } from 'react';

/**
 * 'You are offline' while the browser has no network: nothing is promised offline, the live lists simply resume
 * (each reopens its stream with a fresh snapshot) when the connection is back.
 */
export function OfflineBanner() {
  // Online at first, as on the server (a server-rendered page must hydrate as it was rendered); checked at once.
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    const update = () => setOffline(!navigator.onLine);
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  if (!offline) return null;
  return (
    <div role="status" className={classes.offline}>
      {t('You are offline. What you see may be out of date until the connection is back.')}
    </div>
  );
}
