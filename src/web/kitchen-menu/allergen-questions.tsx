import { Button, Group, NumberInput, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { allergenDescription } from '../../shared/allergen-descriptions.js';
import type { useForm } from '@mantine/form';
import type { AllergenAnswers } from '../../shared/allergen-declaration.js';
import { MAX_KEEPS_DAYS } from '../../shared/allergen-declaration.js';
import { ALLERGENS, allergenName, type AllergenAnswer } from '../../shared/allergen-set.js';
import type { MenuItemFormInput } from '../../shared/menu.js';
import { pageLocale, t } from '../i18n.js';

type Form = Pick<
  ReturnType<typeof useForm<MenuItemFormInput>>,
  'getInputProps' | 'values' | 'errors' | 'setFieldValue' | 'clearFieldError'
>;

/**
 * The dish's ingredients, and 'Does this dish contain … ?' for every allergen of the set (EU's 14 and US's 9):
 * contains, may contain (cross-contact in a home kitchen) or no. Nothing is assumed: each is answered.
 */
export function AllergenQuestions({ form }: { form: Form }) {
  const locale = pageLocale();
  const answers = (form.values.allergenAnswers ?? {}) as Partial<AllergenAnswers>;
  const answer = (allergen: keyof AllergenAnswers, value: AllergenAnswer) => {
    form.setFieldValue('allergenAnswers', { ...answers, [allergen]: value } as AllergenAnswers);
    form.clearFieldError(`allergenAnswers.${allergen}`);
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="allergens-heading">
      <Title order={3} size="h5" id="allergens-heading">
        {t('Ingredients and allergens')}
      </Title>
      <Textarea
        label={t('Ingredients')}
        description={t('Everything in the dish, as you would list it on a label')}
        autosize
        minRows={2}
        {...form.getInputProps('ingredients')}
      />
      <Text size="sm">
        {t('Answer for every allergen. Customers with allergies rely on it, and it goes on your labels.')}
      </Text>
      <Button
        variant="light"
        size="xs"
        style={{ alignSelf: 'flex-start' }}
        onClick={() => {
          form.setFieldValue(
            'allergenAnswers',
            Object.fromEntries(ALLERGENS.map((a) => [a, answers[a] ?? 'no'])) as AllergenAnswers,
          );
          for (const a of ALLERGENS) form.clearFieldError(`allergenAnswers.${a}`);
        }}
      >
        {t('Answer No to the ones left')}
      </Button>
      {ALLERGENS.map((a) => (
        <Radio.Group
          key={a}
          label={t('Does this dish contain {allergen}?', { allergen: allergenName(a, locale) })}
          description={allergenDescription(a, locale)}
          value={answers[a] ?? null}
          onChange={(value) => answer(a, value as AllergenAnswer)}
          error={form.errors[`allergenAnswers.${a}`]}
          withAsterisk
        >
          <Group gap="md" mt={4}>
            <Radio value="contains" label={t('Contains')} />
            <Radio value="may contain" label={t('May contain')} />
            <Radio value="no" label={t('No')} />
          </Group>
        </Radio.Group>
      ))}
      <NumberInput
        label={t('Keeps for (days)')}
        description={t('For the use-by date on labels: 0 for the same day')}
        min={0}
        max={MAX_KEEPS_DAYS}
        allowDecimal={false}
        value={form.values.keepsDays ?? ''}
        onChange={(next) => form.setFieldValue('keepsDays', typeof next === 'number' ? next : null)}
        error={form.errors.keepsDays}
      />
      <Textarea
        label={t('Reheating instructions')}
        autosize
        minRows={1}
        {...form.getInputProps('reheating')}
      />
    </Stack>
  );
}
