import { Anchor, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import type { Kitchen } from '../../shared/kitchens.js';
import type { MenuItemInput } from '../../shared/menu.js';
import { paths } from '../../shared/paths.js';
import { emptyMenuItem, MenuItemForm } from './menu-item-form.js';
import { useAddMenuItem, useOwnMenu } from './use-own-menu.js';

/** Step 2: add dishes one after another; the form clears after each and the step stays. */
export function AddMenuStep({ kitchen }: { kitchen: Kitchen }) {
  const add = useAddMenuItem(kitchen.uid);
  const menu = useOwnMenu(kitchen.uid);

  const onAdd = async (values: MenuItemInput) => {
    const item = await add.mutateAsync(values);
    notifications.show({ color: 'green', title: 'Added to your menu', message: item.item });
  };

  return (
    <section aria-labelledby="add-menu-heading">
      <Text size="sm" c="dimmed">
        Step 2 of 2 · {kitchen.name}
      </Text>
      <Title order={2} id="add-menu-heading" mb="md">
        Add Menu
      </Title>
      <MenuItemForm initialValues={emptyMenuItem} submitLabel="Add Menu" onSave={onAdd} clearOnSave />
      {menu.data ? (
        <Text size="sm" mt="md" aria-live="polite">
          Your menu has {menu.data.length} {menu.data.length === 1 ? 'item' : 'items'}.{' '}
          <Anchor component={Link} to={paths.menuDashboard.href()}>
            See your menu
          </Anchor>
        </Text>
      ) : null}
    </section>
  );
}
