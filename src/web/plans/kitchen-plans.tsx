import { Button, Checkbox, Group, NumberInput, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { MAX_CUTOFF_HOURS, MIN_CUTOFF_HOURS, type KitchenPlans } from '../../shared/plans.js';
import { LoadFailed } from '../lib/load-failed.js';
import { t } from '../i18n.js';
import { weekSlot } from './plan-format.js';
import { useKitchenPlans, useSavePlanSettings } from './use-plans.js';

/** 'Offer weekly plans' and the cut-off, in hours before each week's slot. */
function PlanSettingsForm({ settings }: { settings: KitchenPlans['settings'] }) {
  const save = useSavePlanSettings();
  const [offered, setOffered] = useState(settings.offered);
  const [cutoff, setCutoff] = useState<number | string>(settings.cutoffHours);
  const [cooksChoice, setCooksChoice] = useState(settings.cooksChoice ?? false);
  useEffect(() => {
    setOffered(settings.offered);
    setCutoff(settings.cutoffHours);
    setCooksChoice(settings.cooksChoice ?? false);
  }, [settings]);
  const submit = async () => {
    try {
      await save.mutateAsync({ offered, cutoffHours: Number(cutoff), cooksChoice });
      notifications.show({ color: 'green', message: t('Saved') });
    } catch (error) {
      notifications.show({ color: 'red', title: t('Could not save'), message: (error as Error).message });
    }
  };
  return (
    <Stack gap="xs">
      <Checkbox
        label={t('Offer weekly plans')}
        description={t(
          'Customers can order the same dishes every week; each order reaches you at the cut-off.',
        )}
        checked={offered}
        onChange={(event) => setOffered(event.currentTarget.checked)}
      />
      <Checkbox
        label={t("Cook's choice allowed")}
        description={t(
          'Customers may let you choose their dishes within a budget; a dish you take off the menu is replaced by your choice instead of the week being skipped.',
        )}
        checked={cooksChoice}
        onChange={(event) => setCooksChoice(event.currentTarget.checked)}
      />
      <Group align="end" wrap="wrap">
        <NumberInput
          label={t('Cut-off (hours before the slot)')}
          min={MIN_CUTOFF_HOURS}
          max={MAX_CUTOFF_HOURS}
          allowDecimal={false}
          value={cutoff}
          onChange={setCutoff}
          w={220}
        />
        <Button loading={save.isPending} onClick={() => void submit()}>
          {t('Save plan settings')}
        </Button>
      </Group>
    </Stack>
  );
}

/** 'Plans' on the cook's dashboard: planned meals per week and slot, the dishes to cook, and the settings. */
export function KitchenPlansSection({ timeZone }: { timeZone: string }) {
  const plans = useKitchenPlans();
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="kitchen-plans-heading">
      <Title order={2} size="h3" id="kitchen-plans-heading" mb="md">
        {t('Plans')}
      </Title>
      {plans.isError ? (
        <LoadFailed
          title={t('Could not load your plans')}
          error={plans.error}
          retry={() => void plans.refetch()}
        />
      ) : plans.data ? (
        <Stack gap="md">
          <PlanSettingsForm settings={plans.data.settings} />
          {plans.data.slots.length === 0 ? (
            <Text size="sm">{t('No planned meals in the next four weeks.')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={340}>
              <Table>
                <Table.Caption>{t('Planned meals, next four weeks')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('Slot')}</Table.Th>
                    <Table.Th scope="col">{t('Orders')}</Table.Th>
                    <Table.Th scope="col">{t('Dishes to cook')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {plans.data.slots.map((slot) => (
                    <Table.Tr key={slot.slotStart}>
                      <Table.Td>{weekSlot(slot.slotStart, timeZone)}</Table.Td>
                      <Table.Td>
                        {slot.placed > 0
                          ? t('{orders} ({placed} placed)', { orders: slot.orders, placed: slot.placed })
                          : String(slot.orders)}
                      </Table.Td>
                      <Table.Td>
                        {slot.dishes
                          .map((dish) =>
                            t('{item} × {quantity}', { item: dish.item, quantity: dish.quantity }),
                          )
                          .join(t(', '))}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      ) : null}
    </Paper>
  );
}
