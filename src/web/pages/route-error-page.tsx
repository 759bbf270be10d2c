import { useRouteError } from '../router/router.js';
import { NotFoundPage } from './not-found-page.js';
import { t } from '../i18n.js';

export function RouteErrorPage() {
  const error = useRouteError();
  const message = error instanceof Error ? error.message : undefined;
  return (
    <NotFoundPage
      title={t('Something went wrong')}
      message={
        message
          ? t('This page failed to load: {error}. Please reload, or go back to the kitchens.', {
              error: t(message),
            })
          : t('This page failed to load. Please reload, or go back to the kitchens.')
      }
    />
  );
}
