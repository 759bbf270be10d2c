import { Badge, Button, CloseButton, Group, Stack, Text } from '@mantine/core';
import { PlainTextInput } from '../lib/plain-text-input.js';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useId, useState } from 'react';
import { DIETARY_LABELS, DIETARY_TAGS, type DietaryTag } from '../../shared/dietary-tags.js';
import { AddressPicker } from './address-picker.js';
import { FilterChip } from './filter-chip.js';
import { NearMeButton } from './near-me-button.js';
import type { SearchFilters } from './use-search-filters.js';
import { AllergyFilter } from '../allergies/allergy-filter.js';
import { useAvoidedAllergens } from '../allergies/use-allergy-profile.js';
import { t } from '../i18n.js';
import classes from './search-controls.module.css';

interface Props {
  filters: SearchFilters;
  update: (change: Partial<SearchFilters> | ((current: SearchFilters) => Partial<SearchFilters>)) => void;
  cuisines: string[];
}

/** How many filters besides the search words are chosen: a cuisine, 'Open now', each diet, a place. */
export const chosenFilters = (f: SearchFilters) =>
  (f.cuisine ? 1 : 0) + (f.open ? 1 : 0) + f.diet.length + (f.near ? 1 : 0);

/**
 * The search field, cuisine chips, dietary filters and 'Use my location' above the kitchens grid. On a phone the
 * filters wait behind a 'Filters' button saying how many are chosen, so that the first screen reaches the first
 * kitchen; from the `sm` breakpoint up the button is not shown and the filters always are (search-controls.module.css).
 */
export function SearchControls({ filters, update, cuisines }: Props) {
  const [text, setText] = useState(filters.q);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const allergies = useAvoidedAllergens();
  const chosen = chosenFilters(filters) + (allergies ? 1 : 0);
  const [debounced] = useDebouncedValue(text, 300);
  // The URL is the truth: the back button (or a shared link) changes it, and the field follows.
  useEffect(() => setText(filters.q), [filters.q]);
  useEffect(() => {
    if (debounced.trim() !== filters.q.trim()) update({ q: debounced });
    // Only a pause in typing writes the URL; a URL change alone must not write it back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  const cuisineChoices =
    filters.cuisine && !cuisines.some((c) => same(c, filters.cuisine))
      ? [filters.cuisine, ...cuisines]
      : cuisines;
  return (
    <Stack gap="sm" mb="lg">
      <PlainTextInput
        label={t('Search kitchens and dishes')}
        placeholder={t('Biryani, pho, Kerala fish curry…')}
        type="search"
        value={text}
        maxLength={100}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') update({ q: text });
        }}
        rightSection={
          text ? (
            <CloseButton
              aria-label={t('Clear the search words')}
              onClick={() => {
                setText('');
                update({ q: '' });
              }}
            />
          ) : null
        }
      />
      <Button
        className={classes.filtersButton}
        variant="default"
        aria-expanded={filtersOpen}
        aria-controls={filtersId}
        onClick={() => setFiltersOpen((open) => !open)}
        rightSection={
          chosen > 0 ? (
            <Badge size="sm" circle>
              {chosen}
            </Badge>
          ) : null
        }
      >
        {t('Filters')}
      </Button>
      <Stack gap="sm" id={filtersId} className={classes.filters} data-open={filtersOpen || undefined}>
        {cuisineChoices.length > 0 && (
          <div role="group" aria-labelledby="cuisine-label">
            <Text id="cuisine-label" size="sm" fw={500} mb={4}>
              {t('Cuisine')}
            </Text>
            <Group gap={6}>
              {cuisineChoices.map((cuisine) => (
                <FilterChip
                  key={cuisine}
                  checked={same(cuisine, filters.cuisine)}
                  onChange={(checked) => update({ cuisine: checked ? cuisine : '' })}
                >
                  {cuisine}
                </FilterChip>
              ))}
            </Group>
          </div>
        )}
        <div className={classes.alone}>
          {/* Green darker than Mantine's green.8 (white on it is 3.4:1, axe asks 4.5:1 once checked): 6.1:1. */}
          <FilterChip
            color="#237032"
            checked={filters.open}
            onChange={(checked) => update({ open: checked })}
          >
            {t('Open now')}
          </FilterChip>
        </div>
        <div role="group" aria-labelledby="diet-label">
          <Text id="diet-label" size="sm" fw={500} mb={4}>
            {t('Dietary needs')}
          </Text>
          <Group gap={6}>
            {DIETARY_TAGS.map((tag) => (
              <FilterChip
                key={tag}
                variant="outline"
                checked={filters.diet.includes(tag)}
                onChange={(checked) => update((current) => ({ diet: toggled(current.diet, tag, checked) }))}
              >
                {t(DIETARY_LABELS[tag])}
              </FilterChip>
            ))}
          </Group>
        </div>
        <AllergyFilter />
        <NearMeButton near={filters.near} onChange={(near) => update({ near })} />
        {!filters.near && <AddressPicker onPick={(near) => update({ near })} />}
      </Stack>
    </Stack>
  );
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

const toggled = (diet: DietaryTag[], tag: DietaryTag, on: boolean) =>
  on ? [...diet, tag] : diet.filter((other) => other !== tag);
