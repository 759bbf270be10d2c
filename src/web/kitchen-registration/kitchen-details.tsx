import { Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Kitchen, KitchenInput } from '../../shared/kitchens.js';
import { KitchenForm } from './kitchen-form.js';
import { useEditKitchen } from './use-own-kitchen.js';
import { t } from '../i18n.js';

/**
 * Edit the kitchen's name, category, address, picture and 'About the cook' (the landing and menu pages show the
 * change live).
 */
export function KitchenDetails({ kitchen }: { kitchen: Kitchen }) {
  const edit = useEditKitchen();
  const onSave = async (values: KitchenInput) => {
    await edit.mutateAsync(values);
    notifications.show({ color: 'green', title: t('Kitchen details saved'), message: values.name });
  };
  return (
    <section aria-labelledby="details-heading">
      <Title order={2} id="details-heading" mb="md">
        {t('Edit kitchen details')}
      </Title>
      <KitchenForm
        initialValues={{
          name: kitchen.name,
          category: kitchen.category,
          address: kitchen.address,
          imageLink: kitchen.imageLink ?? undefined,
          imageId: kitchen.image?.id,
          deliveryRadiusKm: kitchen.deliveryRadiusKm,
          timeZone: kitchen.timeZone,
          hours: kitchen.hours,
          about: kitchen.about,
        }}
        initialImage={kitchen.image}
        submitLabel={t('Save details')}
        withAbout
        onSave={onSave}
      />
    </section>
  );
}
