import { Autocomplete, Button, Stack, Textarea, TextInput } from '@mantine/core';
import type { StoredImage } from '../../shared/images.js';
import { KitchenInput, MAX_ABOUT_LENGTH } from '../../shared/kitchens.js';
import { PictureField } from '../images/picture-field.js';
import { SaveFailureAlert } from '../kitchen-admin/save-failure.js';
import { useSchemaForm } from '../kitchen-admin/use-schema-form.js';
import { DeliveryRadiusField } from './delivery-radius-field.js';
import { browserTimeZone, HoursField } from './hours-field.js';
import { t } from '../i18n.js';

/** The first problem with a day's hours (the schema names them hours.mon.0.1 and so on). */
const hoursError = (errors: Record<string, React.ReactNode>) =>
  Object.entries(errors).find(([path]) => path.startsWith('hours.'))?.[1];

// Data, not messages: the category a cook picks is stored as it is written.
const CATEGORY_EXAMPLES = ['Indian', 'Mexican', 'Filipino'];

/** A new kitchen: in the cook's own time zone, with the standard hours until they set theirs. */
export const emptyKitchen = (): KitchenInput => ({
  name: '',
  category: '',
  address: '',
  imageLink: '',
  imageId: undefined,
  timeZone: browserTimeZone(),
});

/**
 * The kitchen's fields, checked in the browser with the same schema the server uses. `onSave` throws on failure
 * (an ApiError naming a field puts its message on that field); it may also settle a failure itself (`true`).
 */
export function KitchenForm({
  initialValues,
  initialImage,
  submitLabel,
  onSave,
  withAbout = false,
}: {
  initialValues: KitchenInput;
  initialImage?: StoredImage | null;
  submitLabel: string;
  onSave: (values: KitchenInput) => Promise<void>;
  /** Show 'About the cook' (the dashboard; registration keeps the spec's four fields). */
  withAbout?: boolean;
}) {
  const { form, failure, submit } = useSchemaForm(KitchenInput, initialValues, onSave);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={560}>
        <TextInput
          label={t('Name of Kitchen')}
          withAsterisk
          autoComplete="off"
          {...form.getInputProps('name')}
        />
        <Autocomplete
          label={t('Category')}
          description={t('For example Indian, Mexican or Filipino')}
          withAsterisk
          data={CATEGORY_EXAMPLES}
          {...form.getInputProps('category')}
        />
        <TextInput
          label={t('Address')}
          withAsterisk
          autoComplete="street-address"
          {...form.getInputProps('address')}
        />
        <DeliveryRadiusField
          value={form.values.deliveryRadiusKm}
          onChange={(km) => form.setFieldValue('deliveryRadiusKm', km)}
          error={form.errors.deliveryRadiusKm}
        />
        <HoursField
          hours={form.values.hours}
          timeZone={form.values.timeZone}
          onChange={(hours) => form.setFieldValue('hours', hours)}
          onTimeZone={(zone) => form.setFieldValue('timeZone', zone)}
          error={form.errors.hours ?? form.errors.timeZone ?? hoursError(form.errors)}
        />
        <PictureField
          linkLabel={t('Image of your kitchen link')}
          value={form.values}
          onChange={(picture) => form.setValues(picture)}
          error={form.errors.imageLink ?? form.errors.imageId}
          initialImage={initialImage}
        />
        {withAbout ? (
          <Textarea
            label={t('About the cook')}
            description={t('Your story, shown on your menu page (optional)')}
            autosize
            minRows={3}
            maxRows={10}
            maxLength={MAX_ABOUT_LENGTH}
            {...form.getInputProps('about')}
          />
        ) : null}
        <SaveFailureAlert failure={failure} />
        <Button type="submit" loading={form.submitting} style={{ alignSelf: 'flex-start' }}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
