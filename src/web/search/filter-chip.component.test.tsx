// @vitest-environment happy-dom
import { Chip, type ChipProps } from '@mantine/core';
import { act, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { comparableHtml, serverRenderedThenHydrated } from '../lib/mantine-html.js';
import { FilterChip } from './filter-chip.js';
import classes from './search-controls.module.css';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** What the landing page used before: Mantine's Chip, small, its sizes in its class rather than its style. */
function MantineChip(props: ChipProps) {
  return (
    <Chip
      {...props}
      size="sm"
      className={classes.chip}
      vars={() => ({
        root: {
          '--chip-fz': '',
          '--chip-size': '',
          '--chip-checked-padding': '',
          '--chip-padding': '',
          '--chip-icon-size': '',
          '--chip-spacing': '',
        },
      })}
    />
  );
}

const html = comparableHtml;

describe("a filter chip's HTML", () => {
  const cases: { name: string; props: Pick<ChipProps, 'variant' | 'color'> }[] = [
    { name: 'a cuisine (filled, the primary colour)', props: {} },
    { name: "'Open now' (green)", props: { color: 'green' } },
    { name: 'a dietary need (outline)', props: { variant: 'outline' } },
  ];
  for (const { name, props } of cases)
    for (const checked of [false, true])
      it(`is Mantine's Chip's: ${name}, ${checked ? 'checked' : 'not checked'}`, () => {
        const ours = html(
          <FilterChip {...(props as object)} checked={checked} onChange={() => undefined}>
            Korean
          </FilterChip>,
        );
        const mantine = html(
          <MantineChip {...props} checked={checked} onChange={() => undefined}>
            Korean
          </MantineChip>,
        );
        // Mantine's Chip also hands its `color` on to the checkbox, where it means nothing.
        expect(ours).toBe(mantine.replace(/(<input[^>]*) color="[^"]*"/, '$1'));
        expect(ours).toContain('Korean');
      });
});

describe('a hydrated filter chip', () => {
  let done: (() => void) | undefined;
  afterEach(() => done?.());

  it('is rendered once as it hydrates, keeps the server id, and toggles', async () => {
    const rendered = vi.fn();
    function Filter() {
      const [on, setOn] = useState(false);
      rendered(on);
      return (
        <FilterChip checked={on} onChange={setOn}>
          Korean
        </FilterChip>
      );
    }
    let serverId: string | undefined;
    const { page, unmount } = await serverRenderedThenHydrated(<Filter />, (served) => {
      serverId = served.querySelector('input')?.id;
      rendered.mockClear();
    });
    done = unmount;
    expect(rendered).toHaveBeenCalledTimes(1);
    const input = page.querySelector('input');
    expect(input?.id).toBe(serverId);
    expect(page.querySelector('label')?.getAttribute('for')).toBe(serverId);
    await act(async () => input?.click());
    expect(input?.checked).toBe(true);
    expect(page.querySelector('label')?.hasAttribute('data-checked')).toBe(true);
    expect(page.querySelector('.mantine-Chip-checkIcon')).not.toBeNull();
    page.remove();
  });
});
