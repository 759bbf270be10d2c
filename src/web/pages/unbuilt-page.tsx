import { Text, Title } from '@mantine/core';
import { PageLayout } from '../layout/page-layout.js';

/** A route of the spec whose screen has not been built yet: says so plainly instead of faking it. */
export function UnbuiltPage({ title }: { title: string }) {
  return (
    <PageLayout>
      <Title order={1} mb="sm">
        {title}
      </Title>
      <Text>This part of HomeCooked is not open yet.</Text>
    </PageLayout>
  );
}
