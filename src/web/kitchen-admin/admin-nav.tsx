import { Anchor, Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { NavLink, useNavigate } from '../router/router.js';
import { paths } from '../../shared/paths.js';
import { useSignOut } from '../auth/sign-in.js';
import { allEarningsKey } from '../earnings/use-earnings.js';
import { allInsightsKey } from '../insights/use-insights.js';
import { allKitchenOrdersKey } from '../kitchen-orders/use-kitchen-orders.js';
import { allOwnKitchensKey } from '../kitchen-registration/use-own-kitchen.js';
import classes from './admin-nav.module.css';
import { msg, t } from '../i18n.js';

const steps = [
  { label: msg('1 MENU'), to: paths.menuDashboard.href() },
  { label: msg('2 ADD TO MENU'), to: paths.kitchenRegister.href() },
  { label: msg('3 Orders'), to: paths.kitchenOrders.href() },
];

/**
 * On the kitchen's pages, the installable app is the kitchen's: 'Add to Home Screen' gives an icon that opens
 * /KitchenOrders (public/manifest-kitchen.webmanifest) rather than the landing page.
 */
function useKitchenManifest() {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    if (!link) return;
    const before = link.getAttribute('href');
    link.setAttribute('href', '/manifest-kitchen.webmanifest');
    return () => {
      if (before) link.setAttribute('href', before);
    };
  }, []);
}

/** The admin pages' numbered steps; 4 SIGN OUT ends the kitchen session (not the customer's) and goes home. */
export function AdminNav() {
  const signOut = useSignOut('kitchen');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  // Home first: once the session is gone this page's guard would redirect to /AdminSignIn, and unmount us.
  const onSignOut = async () => {
    setBusy(true);
    await navigate(paths.home.href());
    try {
      await signOut();
      queryClient.removeQueries({ queryKey: allOwnKitchensKey });
      queryClient.removeQueries({ queryKey: allKitchenOrdersKey });
      queryClient.removeQueries({ queryKey: allEarningsKey });
      queryClient.removeQueries({ queryKey: allInsightsKey });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('Could not sign out'),
        message: error instanceof Error ? error.message : t('Please try again'),
      });
    }
  };

  useKitchenManifest();

  // One line on any screen: four equal cells on a phone (a label may wrap inside its button), a row of buttons
  // on wide screens.
  const numbered = (
    <nav aria-label={t('Kitchen admin')} className={classes.nav}>
      {steps.map((step) => (
        <Button
          key={step.to}
          component={NavLink}
          to={step.to}
          end
          variant="default"
          size="sm"
          className={classes.step}
        >
          {t(step.label)}
        </Button>
      ))}
      <Button
        variant="subtle"
        size="sm"
        loading={busy}
        onClick={() => void onSignOut()}
        className={classes.step}
      >
        {t('4 SIGN OUT')}
      </Button>
    </nav>
  );
  // The spec's four steps stay as they are; the cook's money is one link under them.
  return (
    <>
      {numbered}
      <nav aria-label={t('Kitchen money')} className={classes.more}>
        <Anchor component={NavLink} to={paths.earnings.href()} className={classes.moreLink}>
          {t('Earnings')}
        </Anchor>
        <Anchor component={NavLink} to={paths.insights.href()} className={classes.moreLink}>
          {t('Insights')}
        </Anchor>
      </nav>
    </>
  );
}
