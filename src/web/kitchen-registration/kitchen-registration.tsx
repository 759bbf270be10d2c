import { Stack, Text, Title } from '@mantine/core';
import { FeesNote } from '../payments/fees-note.js';
import { useQueryClient } from '@tanstack/react-query';
import type { SessionUser } from '../../shared/auth.js';
import type { KitchenInput } from '../../shared/kitchens.js';
import { ApiError } from '../lib/api-client.js';
import { AddMenuStep } from '../kitchen-menu/add-menu-step.js';
import { emptyKitchen, KitchenForm } from './kitchen-form.js';
import { LoadFailed } from '../lib/load-failed.js';
import { LoadingText } from '../kitchen-admin/status-views.js';
import { ownKitchenKey, useOwnKitchen, useRegisterKitchen } from './use-own-kitchen.js';
import { t } from '../i18n.js';

/**
 * The two-step admin screen: step 1 registers the kitchen, step 2 adds dishes. An owner who already has a
 * kitchen starts at step 2; a registration refused because one exists (409) moves there too.
 */
export function KitchenRegistration({ user }: { user: SessionUser }) {
  const kitchen = useOwnKitchen(user.uid);
  const register = useRegisterKitchen();
  const queryClient = useQueryClient();

  const onRegister = async (values: KitchenInput) => {
    try {
      await register.mutateAsync(values);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        await queryClient.invalidateQueries({ queryKey: ownKitchenKey(user.uid) });
        return;
      }
      throw error;
    }
  };

  return (
    <Stack gap="lg">
      <Title order={1}>{t('Welcome {name}', { name: user.displayName })}</Title>
      {kitchen.isPending ? (
        <LoadingText />
      ) : kitchen.isError ? (
        <LoadFailed
          title={t('We could not check whether you have a kitchen')}
          error={kitchen.error}
          retry={() => void kitchen.refetch()}
        />
      ) : kitchen.data ? (
        <AddMenuStep kitchen={kitchen.data} />
      ) : (
        <section aria-labelledby="register-heading">
          <Text size="sm" c="dimmed">
            {t('Step {step} of {steps}', { step: 1, steps: 2 })}
          </Text>
          <Title order={2} id="register-heading" mb="md">
            {t('Register your kitchen')}
          </Title>
          <FeesNote />
          <KitchenForm initialValues={emptyKitchen()} submitLabel={t('Next Step')} onSave={onRegister} />
        </section>
      )}
    </Stack>
  );
}
