import { Button, Text, Title } from '@mantine/core';
import { Link } from '../router/router.js';
import { paths } from '../../shared/paths.js';
import { PageLayout } from '../layout/page-layout.js';
import { t } from '../i18n.js';

export function NotFoundPage({ title, message }: { title?: string; message?: string }) {
  return (
    <PageLayout>
      <Title order={1} mb="sm">
        {title ?? t('Page not found')}
      </Title>
      <Text mb="md">
        {message ?? t('There is nothing at this address. It may have moved, or the link may be wrong.')}
      </Text>
      <Button component={Link} to={paths.home.href()}>
        {t('Back to the kitchens')}
      </Button>
    </PageLayout>
  );
}
