import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { MenuItem, MenuItemFormInput } from '../../shared/menu.js';
import { decimalAmount } from '../../shared/money.js';
import { answersOf } from '../../shared/allergen-declaration.js';
import { MenuItemForm } from './menu-item-form.js';
import { useEditMenuItem } from './use-own-menu.js';
import { t } from '../i18n.js';

/** A saved dish as its form holds it. */
export const toInput = (item: MenuItem): MenuItemFormInput => ({
  item: item.item,
  secondName: item.secondName ?? '',
  imageLink: item.imageLink ?? undefined,
  imageId: item.image?.id,
  // The form's plain decimal in the currency's units ('12.50', '500' yen), whatever the language shows money as.
  price: decimalAmount(item.priceCents),
  wait: item.wait,
  dietary: item.dietary,
  // A declared dish's answers; an undeclared one has none yet (the cook answers every question, or none).
  allergenAnswers: item.allergensDeclared
    ? answersOf({ contains: item.allergens, mayContain: item.mayContain })
    : undefined,
  ingredients: item.ingredients,
  keepsDays: item.keepsDays,
  reheating: item.reheating,
  soldOut: item.soldOut,
  portionsPerDay: item.portionsPerDay,
});

/** Edits one dish in a dialog; closes on success, keeps the form (with what is wrong) on failure. */
export function EditMenuItemModal({
  kitchenUid,
  item,
  onClose,
}: {
  kitchenUid: string;
  item: MenuItem | undefined;
  onClose: () => void;
}) {
  const edit = useEditMenuItem(kitchenUid);
  const onSave = async (values: MenuItemFormInput) => {
    const saved = await edit.mutateAsync({ id: item?.id ?? '', patch: values });
    notifications.show({ color: 'green', title: t('Menu item saved'), message: saved.item });
    onClose();
  };
  return (
    <Modal opened={item !== undefined} onClose={onClose} title={t('Edit menu item')} centered>
      {item ? (
        <MenuItemForm
          key={item.id}
          initialValues={toInput(item)}
          initialImage={item.image}
          submitLabel={t('Save changes')}
          onSave={onSave}
        />
      ) : null}
    </Modal>
  );
}
