import { Alert } from '@mantine/core';
import type { KitchenListingState } from '../../shared/jurisdictions.js';
import { t } from '../i18n.js';

/**
 * What the cook reads while their kitchen is not listed under its place's rules: waiting for an operator to check
 * its permit, the changes asked, a refusal with its reason, or a place where home kitchens may not sell.
 */
export function ListingAlert({ listing }: { listing: KitchenListingState | undefined }) {
  switch (listing?.state) {
    case 'awaiting-approval':
      return (
        <Alert color="blue" role="status" title={t('Waiting for approval')}>
          {t(
            'Your place asks for a permit: an operator checks it before your kitchen is listed and takes orders. Add your permit number and certificate below.',
          )}
        </Alert>
      );
    case 'changes-asked':
      return (
        <Alert color="yellow" role="status" title={t('Changes asked: {reason}', { reason: listing.reason })}>
          {t('Your kitchen is listed once an operator approves it. Add the papers asked for below.')}
        </Alert>
      );
    case 'refused':
      return (
        <Alert color="red" role="status" title={t('Not approved: {reason}', { reason: listing.reason })}>
          {t('Your kitchen is not listed and takes no orders.')}
        </Alert>
      );
    case 'not-allowed':
      return (
        <Alert color="red" role="status" title={t('Home kitchens may not sell here')}>
          {t('Your kitchen is not listed and takes no orders.')}
        </Alert>
      );
    default:
      return null;
  }
}
