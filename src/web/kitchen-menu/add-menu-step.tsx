import { Anchor, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { Link } from '../router/router.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { NewMenuItemInput, type MenuItemFormInput, type MenuItemInput } from '../../shared/menu.js';
import { paths } from '../../shared/paths.js';
import { emptyMenuItem, MenuItemForm } from './menu-item-form.js';
import { useAddMenuItem, useOwnMenu } from './use-own-menu.js';
import { t, tx } from '../i18n.js';

/** Step 2: add dishes one after another; the form clears after each and the step stays. */
export function AddMenuStep({ kitchen }: { kitchen: Kitchen }) {
  const add = useAddMenuItem(kitchen.uid);
  const menu = useOwnMenu(kitchen.uid);

  const onAdd = async (values: MenuItemFormInput) => {
    // Checked by NewMenuItemInput before it is sent: every allergen is answered.
    const item = await add.mutateAsync(values as MenuItemInput);
    notifications.show({ color: 'green', title: t('Added to your menu'), message: item.item });
  };

  return (
    <section aria-labelledby="add-menu-heading">
      <Text size="sm" c="dimmed">
        {t('Step 2 of 2 · {kitchen}', { kitchen: kitchen.name })}
      </Text>
      <Title order={2} id="add-menu-heading" mb="md">
        {t('Add Menu')}
      </Title>
      <MenuItemForm
        initialValues={emptyMenuItem}
        submitLabel={t('Add Menu')}
        onSave={onAdd}
        clearOnSave
        schema={NewMenuItemInput}
      />
      {menu.data ? (
        <Text size="sm" mt="md" aria-live="polite">
          {tx('Your menu has {count, plural, one {# item} other {# items}}. <link>See your menu</link>', {
            count: menu.data.length,
            link: (chunks) => (
              <Anchor component={Link} to={paths.menuDashboard.href()}>
                {chunks as ReactNode}
              </Anchor>
            ),
          })}
        </Text>
      ) : null}
    </section>
  );
}
