import { Card, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { KitchenCard } from './kitchen-card.js';
import { useKitchens } from './use-kitchens.js';
import { LoadFailed } from '../lib/load-failed.js';

/** The landing page's live grid: 3 columns on large screens, 2 on medium, 1 on phones. */
export function KitchensSection() {
  const kitchens = useKitchens();
  return (
    <section aria-labelledby="kitchens-heading">
      <Title order={2} id="kitchens-heading" mb="md">
        Kitchens
      </Title>
      {kitchens.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-busy="true" aria-label="Loading kitchens">
          {[0, 1, 2].map((i) => (
            <Card key={i} withBorder radius="md" padding="md">
              <Skeleton h={24} w="60%" mb="sm" />
              <Skeleton h={180} />
            </Card>
          ))}
        </SimpleGrid>
      ) : kitchens.isError ? (
        <LoadFailed
          title="Could not load the kitchens"
          error={kitchens.error}
          retry={() => void kitchens.refetch()}
        />
      ) : kitchens.data.length === 0 ? (
        <Text c="dimmed">No kitchens yet. Are you a home cook? Register your kitchen and be the first.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" data-testid="kitchens-grid">
          {kitchens.data.map((kitchen) => (
            <KitchenCard key={kitchen.uid} kitchen={kitchen} />
          ))}
        </SimpleGrid>
      )}
    </section>
  );
}
