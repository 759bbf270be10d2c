import { Button, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../shared/paths.js';
import { PageLayout } from '../layout/page-layout.js';

export function NotFoundPage({ title = 'Page not found', message }: { title?: string; message?: string }) {
  return (
    <PageLayout>
      <Title order={1} mb="sm">
        {title}
      </Title>
      <Text mb="md">
        {message ?? 'There is nothing at this address. It may have moved, or the link may be wrong.'}
      </Text>
      <Button component={Link} to={paths.home.href()}>
        Back to the kitchens
      </Button>
    </PageLayout>
  );
}
