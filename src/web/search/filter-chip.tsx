import { CheckIcon, Chip, useMantineTheme, type ChipProps, type MantineColor } from '@mantine/core';
import { useId, type CSSProperties, type ReactNode } from 'react';
import classes from './search-controls.module.css';

/** The variables a chip's colour and variant set (its sizes are in classes.chip, the same for every chip). */
const COLOUR_VARIABLES = ['--chip-bg', '--chip-hover', '--chip-color', '--chip-bd'] as const;

/**
 * A small filter chip: Mantine's Chip as its HTML (its classes, attributes and colour variables), without its
 * component. Mantine's is two `Box`es and its styles API for each of the landing page's 13 chips or more, all
 * hydrated (issue 32); this is one element with three inside. filter-chip.test.tsx renders both on the server and
 * compares them, so a Mantine upgrade that changes its Chip fails that test rather than changing the page. Its id is
 * React's: Mantine's own `useId` replaces the server's id with a random one as soon as the chip is hydrated, which
 * renders every chip a second time.
 */
export function FilterChip({
  checked,
  onChange,
  children,
  variant,
  color,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  variant?: 'filled' | 'outline' | 'light';
  color?: MantineColor;
}) {
  const theme = useMantineTheme();
  const id = useId();
  const style: Record<string, string> = {};
  if (variant || color) {
    const vars = Chip.varsResolver(theme, { variant, color } as ChipProps, {}).root as Record<string, string>;
    for (const name of COLOUR_VARIABLES) if (vars[name] !== undefined) style[name] = vars[name];
  }
  return (
    <div
      style={variant || color ? (style as CSSProperties) : undefined}
      className={`${classes.chip} ${Chip.classes.root} mantine-Chip-root`}
      data-variant={variant}
      data-size="sm"
    >
      <input
        type="checkbox"
        className={`${Chip.classes.input} mantine-Chip-input`}
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
        id={id}
      />
      <label
        className={`${Chip.classes[`label--${variant ?? 'filled'}`]} ${Chip.classes.label} mantine-Chip-label`}
        data-checked={checked || undefined}
        htmlFor={id}
      >
        {checked && (
          <span className={`${Chip.classes.iconWrapper} mantine-Chip-iconWrapper`}>
            <CheckIcon className={`${Chip.classes.checkIcon} mantine-Chip-checkIcon`} />
          </span>
        )}
        <span>{children}</span>
      </label>
    </div>
  );
}
