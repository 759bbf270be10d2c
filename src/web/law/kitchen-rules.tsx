import { Alert, Anchor, Badge, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type {
  KitchenRules as KitchenRulesAnswer,
  OverrideKey,
  RuleOverride,
  Rules,
} from '../../shared/jurisdictions.js';
import { formatWholeMoney } from '../../shared/money.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { t } from '../i18n.js';
import { capsSummary } from './caps-summary.js';
import { useKitchenDocuments, useKitchenRules } from './use-kitchen-rules.js';
import { KitchenDocumentsSection } from './kitchen-documents.js';
import { KitchenHelpersSection } from './kitchen-helpers.js';
import { ListingAlert } from './listing-alert.js';

const yesNo = (value: boolean) => (value ? t('Yes') : t('No'));

/**
 * Whether the permit number is on the menu page, as it is today: not asked for by the profile; asked for and shown
 * (the number); asked for and not added yet (what to do). `permitNumber` undefined: the documents are still loading.
 */
export function permitOnMenu(rules: Rules, permitNumber: string | null | undefined): string {
  if (!rules.permit?.showOnMenu) return t('Not required here');
  if (permitNumber === undefined) return t('Required here');
  return permitNumber === null
    ? t('Required here; not shown yet: add your permit number below, and customers will see it')
    : t('Required here; shown now: {number}', { number: permitNumber });
}

/** Each rule of the profile, one row: what it is, and what it says here (an operator's override said, with why). */
function ruleRows(
  rules: Rules,
  overrides: readonly RuleOverride[],
  permitNumber: string | null | undefined,
): [string, string][] {
  const { caps } = rules;
  const none = t('None');
  // The kitchen's own override comes after its jurisdiction's, and is the one in force.
  const overridden = (key: OverrideKey, value: string) => {
    const override = overrides.findLast((o) => o.key === key);
    return override
      ? t('{value} (overridden by the operators: {reason})', { value, reason: override.reason })
      : value;
  };
  return [
    [t('Home kitchens may sell'), yesNo(rules.sellingAllowed)],
    [
      t('Permit'),
      rules.permit
        ? t('{permit}, from {issuer}', { permit: rules.permit.name, issuer: rules.permit.issuer })
        : none,
    ],
    [t('Permit number on your menu page'), permitOnMenu(rules, permitNumber)],
    [
      t('Certificates'),
      rules.certificates.length
        ? rules.certificates
            .map((c) =>
              c.who === 'operator'
                ? t('{name} (you)', { name: c.name })
                : c.withinDays === null
                  ? t('{name} (each helper)', { name: c.name })
                  : t('{name} (each helper, within {days} days)', { name: c.name, days: c.withinDays }),
            )
            .join(', ')
        : none,
    ],
    [
      t('Meals a day'),
      overridden('mealsPerDay', caps.mealsPerDay === null ? none : String(caps.mealsPerDay)),
    ],
    [
      t('Meals a week'),
      overridden('mealsPerWeek', caps.mealsPerWeek === null ? none : String(caps.mealsPerWeek)),
    ],
    [
      t('Gross sales a year'),
      overridden(
        'grossPerYear',
        caps.grossPerYear === null
          ? none
          : formatWholeMoney(caps.grossPerYear.amountMinor, caps.grossPerYear.currency),
      ),
    ],
    [t('A meal is'), caps.meal === 'order' ? t('one order') : t('one dish portion')],
    [t('Delivery by others (third parties)'), yesNo(rules.thirdPartyDelivery)],
    [t('Food served the day it is made'), yesNo(rules.sameDayService)],
    [
      t('Words your listing may not use'),
      rules.forbiddenWords.length ? rules.forbiddenWords.join(', ') : none,
    ],
  ];
}

/**
 * Whether a profile asks anything of a kitchen: a deployment's fallback may (JURISDICTION_FALLBACK), and then it is
 * not 'No rules configured'.
 */
const asksAnything = (rules: Rules) =>
  !rules.sellingAllowed ||
  rules.permit !== null ||
  rules.certificates.length > 0 ||
  rules.caps.mealsPerDay !== null ||
  rules.caps.mealsPerWeek !== null ||
  rules.caps.grossPerYear !== null;

/** 'Rules for your kitchen': the profile that applies to the cook's kitchen, every rule, and why (place, sources). */
export function KitchenRules({ ownerUid }: { ownerUid: string }) {
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
  if (!rules.data) return <Spinner label={t('Loading the rules for your kitchen')} />;
  const { profile, overrides, place, counted, listing }: KitchenRulesAnswer = rules.data;
  // The number the menu page shows: the permit valid latest (the list has it first), as GET …/booking reads it.
  const permitNumber = documents.data
    ? (documents.data.documents.find((d) => d.kind === 'permit')?.number ?? null)
    : undefined;
  const where = [place.county, place.region, place.countryCode].filter(Boolean).join(', ');
  return (
    <Stack gap="lg">
      <Title order={1}>{t('Rules for your kitchen')}</Title>
      <Text>
        {where
          ? t('Your address is in {where}, so the rules of {profile} apply.', {
              where,
              profile: profile.name,
            })
          : t('Your address could not be placed, so the rules of {profile} apply.', {
              profile: profile.name,
            })}
      </Text>
      {profile.fallback && !asksAnything(profile.rules) && (
        <Alert color="gray" title={t('No rules configured')}>
          {t('No rules are configured for your place yet: nothing is checked or capped.')}
        </Alert>
      )}
      {!profile.rules.sellingAllowed && (
        <Alert color="red" title={t('Home kitchens may not sell here')}>
          {profile.rules.sellingNote}
        </Alert>
      )}
      {listing.state !== 'not-allowed' && <ListingAlert listing={listing} />}
      <KitchenDocumentsSection ownerUid={ownerUid} />
      {documents.data && (documents.data.helperCard || documents.data.helpers.length > 0) && (
        <KitchenHelpersSection ownerUid={ownerUid} data={documents.data} />
      )}
      {counted && <Text fw={600}>{capsSummary(profile.rules.caps, counted).join(' · ')}</Text>}
      <Table>
        <Table.Tbody>
          {ruleRows(profile.rules, overrides, permitNumber).map(([rule, value]) => (
            <Table.Tr key={rule}>
              <Table.Th scope="row">{rule}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Title order={2} size="h3">
        {t('Why these rules')}
      </Title>
      {profile.levels.map((level) => (
        <Paper key={level.name} withBorder radius="md" p="md">
          <Title order={3} size="h4">
            {level.name}
          </Title>
          <Text size="sm">{t('Sets: {rules}', { rules: level.rules.join(', ') })}</Text>
          {level.review && (
            <Text size="sm" c="dimmed">
              {level.review}
            </Text>
          )}
          <List size="sm">
            {level.sources.map((source) => (
              <List.Item key={source.url}>
                {source.url.startsWith('https://') ? (
                  <Anchor href={source.url} target="_blank" rel="noreferrer">
                    {source.title}
                  </Anchor>
                ) : (
                  source.title
                )}{' '}
                <Badge variant="light" color="gray">
                  {t('read {date}', { date: source.read })}
                </Badge>
                {source.note && <Text size="sm">{source.note}</Text>}
              </List.Item>
            ))}
          </List>
        </Paper>
      ))}
      <Text size="sm" c="dimmed">
        {t('Profile {id}, version {version}', { id: profile.id, version: profile.version })}
      </Text>
    </Stack>
  );
}
