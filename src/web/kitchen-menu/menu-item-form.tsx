import { Button, Checkbox, NumberInput, Stack, TextInput } from '@mantine/core';
import type { StoredImage } from '../../shared/images.js';
import { MAX_PORTIONS_PER_DAY, MenuItemFormInput, type NewMenuItemInput } from '../../shared/menu.js';
import type { AllergenAnswers } from '../../shared/allergen-declaration.js';
import { AllergenQuestions } from './allergen-questions.js';
import { minorDigits } from '../../shared/money.js';
import { PictureField } from '../images/picture-field.js';
import { SaveFailureAlert } from '../kitchen-admin/save-failure.js';
import { useSchemaForm } from '../kitchen-admin/use-schema-form.js';
import { DishTagsFields } from './dish-tags-fields.js';
import { t, translator } from '../i18n.js';

export const emptyMenuItem: MenuItemFormInput = {
  item: '',
  secondName: '',
  imageLink: '',
  imageId: undefined,
  price: '',
  wait: '',
  dietary: [],
  // No answer yet for any allergen: each must be given before the dish is added.
  allergenAnswers: {} as AllergenAnswers,
  ingredients: '',
  keepsDays: null,
  reheating: '',
  soldOut: false,
  portionsPerDay: null,
};

/** The deployment's currency as the page's language writes it ('$' in English), beside the price. */
const currencySymbol = () =>
  translator()
    .numberFormat({ style: 'currency', currency: translator().currency })
    .formatToParts(0)
    .find((part) => part.type === 'currency')?.value ?? '$';

/** Whether the deployment's currency has no minor unit (yen): a price is then a whole number. */
const wholeAmounts = () => minorDigits(translator().currency) === 0;

/**
 * A menu item's fields, checked with the server's schema. After a successful save the form clears when
 * `clearOnSave` is set (adding several dishes in a row).
 */
export function MenuItemForm({
  initialValues,
  initialImage,
  submitLabel,
  onSave,
  clearOnSave = false,
  schema = MenuItemFormInput,
}: {
  initialValues: MenuItemFormInput;
  initialImage?: StoredImage | null;
  submitLabel: string;
  onSave: (values: MenuItemFormInput) => Promise<void>;
  clearOnSave?: boolean;
  /** A new dish answers for every allergen (NewMenuItemInput); an edit may leave them as they were. */
  schema?: typeof MenuItemFormInput | typeof NewMenuItemInput;
}) {
  const { form, failure, submit } = useSchemaForm<MenuItemFormInput>(schema, initialValues, onSave, {
    clearOnSave,
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={560}>
        <TextInput label={t('Item')} withAsterisk autoComplete="off" {...form.getInputProps('item')} />
        <TextInput
          label={t('Second name (optional)')}
          description={t(
            'The dish’s name in another script or language, shown beside it and found by search',
          )}
          placeholder="मसाला डोसा"
          dir="auto"
          autoComplete="off"
          {...form.getInputProps('secondName')}
        />
        <PictureField
          linkLabel={t('Image of your Item Link')}
          value={form.values}
          onChange={(picture) => form.setValues(picture)}
          error={form.errors.imageLink ?? form.errors.imageId}
          initialImage={initialImage}
        />
        <TextInput
          label={t('Price')}
          description={
            wholeAmounts()
              ? // translators: a price in a currency without cents (yen): typed as a whole number
                t('For example 500')
              : // translators: keep the point in 12.50: the price is typed with a decimal point (the currency is
                // the deployment's, shown beside the field)
                t('For example 12.50')
          }
          leftSection={currencySymbol()}
          inputMode={wholeAmounts() ? 'numeric' : 'decimal'}
          withAsterisk
          {...form.getInputProps('price')}
        />
        <TextInput
          label={t('Wait Time')}
          placeholder={t('20 min')}
          withAsterisk
          autoComplete="off"
          {...form.getInputProps('wait')}
        />
        <DishTagsFields form={form} />
        <AllergenQuestions form={form} />
        <NumberInput
          label={t('Portions per day')}
          description={t(
            'Leave empty for no limit. Counts down as orders come in; starts again at midnight.',
          )}
          min={1}
          max={MAX_PORTIONS_PER_DAY}
          allowDecimal={false}
          value={form.values.portionsPerDay ?? ''}
          onChange={(next) => form.setFieldValue('portionsPerDay', typeof next === 'number' ? next : null)}
          error={form.errors.portionsPerDay}
        />
        <Checkbox
          label={t('Sold out')}
          description={t("Customers see 'Sold out' and cannot order it until you untick this")}
          {...form.getInputProps('soldOut', { type: 'checkbox' })}
        />
        <SaveFailureAlert failure={failure} />
        <Button type="submit" loading={form.submitting} style={{ alignSelf: 'flex-start' }}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
