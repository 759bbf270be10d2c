import { Anchor, Paper, Text, Title } from '@mantine/core';
import { paths } from '../../shared/paths.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Link } from '../router/router.js';
import { t } from '../i18n.js';
import { useKitchenDocuments, useKitchenRules } from './use-kitchen-rules.js';
import { capsSummary } from './caps-summary.js';
import { DocumentPauseAlert } from './document-pause.js';
import { ListingAlert } from './listing-alert.js';

/** The dashboard's card: how far the kitchen is into its caps, and a link to 'Rules for your kitchen'. */
export function CapsCard({ ownerUid }: { ownerUid: string }) {
  const rules = useKitchenRules(ownerUid);
  const documents = useKitchenDocuments(ownerUid);
  if (rules.isError)
    return (
      <LoadFailed
        title={t('Could not load the rules for your kitchen')}
        error={rules.error}
        retry={() => void rules.refetch()}
      />
    );
  if (!rules.data) return null;
  const { profile, counted } = rules.data;
  return (
    <Paper component="section" withBorder radius="md" p="lg" aria-labelledby="caps-heading">
      <Title order={2} size="h3" id="caps-heading" mb="sm">
        {t('Rules for your kitchen')}
      </Title>
      <ListingAlert listing={rules.data.listing} />
      <DocumentPauseAlert pause={documents.data?.pause} />
      {counted ? (
        <>
          <Text fw={600}>{capsSummary(profile.rules.caps, counted).join(' · ')}</Text>
          {profile.rules.caps.mealsPerWeek !== null && profile.rules.caps.mealsPerDay !== null && (
            <Text size="sm">
              {t('Today: {meals} of {cap} meals', {
                meals: counted.today,
                cap: profile.rules.caps.mealsPerDay,
              })}
            </Text>
          )}
        </>
      ) : (
        <Text>{t('No caps on your meals or sales here.')}</Text>
      )}
      <Text size="sm" c="dimmed">
        {t('Rules of: {place}', { place: profile.name })}
      </Text>
      <Anchor component={Link} to={paths.kitchenRules.href()}>
        {t('See which rules apply and why')}
      </Anchor>
    </Paper>
  );
}
