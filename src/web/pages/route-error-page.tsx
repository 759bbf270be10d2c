import { useRouteError } from 'react-router';
import { NotFoundPage } from './not-found-page.js';

export function RouteErrorPage() {
  const error = useRouteError();
  const message = error instanceof Error ? error.message : undefined;
  return (
    <NotFoundPage
      title="Something went wrong"
      message={`This page failed to load${message ? `: ${message}` : ''}. Please reload, or go back to the kitchens.`}
    />
  );
}
